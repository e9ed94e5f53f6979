/**
 * Builds the client of the generated `sqlite` variant and a create-vue `--ts --router --pinia`
 * project, and prints the gzipped JavaScript and CSS of both and the ratio (target: ≤ 1.6).
 * Our app builds from the shared variant install; create-vue's project installs its own
 * package.json (cached like the shared install), so each side builds with its own choices.
 *
 *   npm run bench:client-size
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { execa } from 'execa'
import { createVueBin } from './lib/create-vue.js'
import { renderLinkedVariant, sharedNodeModules } from './lib/shared-install.js'

const createVue = createVueBin()

interface Sizes {
  js: number
  css: number
}

function gzippedSizes(assetsDir: string): Sizes {
  const sizes: Sizes = { js: 0, css: 0 }
  for (const file of readdirSync(assetsDir)) {
    const kind = file.endsWith('.js') ? 'js' : file.endsWith('.css') ? 'css' : undefined
    if (kind) sizes[kind] += gzipSync(readFileSync(join(assetsDir, file))).length
  }
  return sizes
}

async function viteBuild(cwd: string): Promise<void> {
  await execa('node', [join(cwd, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd, stdio: 'inherit' })
}

/** create-vue's project with its own dependencies, installed once into a cache. */
async function createVueProject(root: string): Promise<string> {
  const dir = join(root, 'create-vue-app')
  const env = { ...process.env }
  delete env.CI
  // create-vue takes the project name relative to its working directory.
  await execa('node', [createVue, 'create-vue-app', '--ts', '--router', '--pinia'], { cwd: root, env, stdio: 'ignore' })
  const pkg = readFileSync(join(dir, 'package.json'), 'utf8')
  const cache = join(homedir(), '.cache', 'create-cookie-auth-app', 'create-vue', Buffer.from(pkg).toString('base64url').slice(-24))
  if (!existsSync(join(cache, '.installed'))) {
    rmSync(cache, { recursive: true, force: true })
    mkdirSync(cache, { recursive: true })
    writeFileSync(join(cache, 'package.json'), pkg)
    await execa('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: cache, stdio: 'inherit' })
    writeFileSync(join(cache, '.installed'), '')
  }
  symlinkSync(join(cache, 'node_modules'), join(dir, 'node_modules'), 'dir')
  return dir
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`

const root = mkdtempSync(join(tmpdir(), 'cca-size-'))
try {
  const ours = join(root, 'sqlite')
  renderLinkedVariant('sqlite', ours, await sharedNodeModules())
  await viteBuild(ours)
  const theirs = await createVueProject(root)
  await viteBuild(theirs)

  const a = gzippedSizes(join(ours, 'dist', 'client', 'assets'))
  const b = gzippedSizes(join(theirs, 'dist', 'assets'))
  console.log('gzipped          js          css         total')
  for (const [name, sizes] of [['ours (sqlite)', a], ['create-vue', b]] as const) {
    console.log(`${name.padEnd(16)} ${kb(sizes.js).padStart(10)}  ${kb(sizes.css).padStart(10)}  ${kb(sizes.js + sizes.css).padStart(10)}`)
  }
  console.log(`ratio: js ${(a.js / b.js).toFixed(2)}, css ${(a.css / b.css).toFixed(2)}, total ${((a.js + a.css) / (b.js + b.css)).toFixed(2)} (target ≤ 1.6)`)
} finally {
  rmSync(root, { recursive: true, force: true })
}
