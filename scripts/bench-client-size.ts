/**
 * Builds the client of a generated variant (`sqlite` unless one is named) and a create-vue `--ts --router --pinia`
 * project, and prints the gzipped JavaScript and CSS of both and their ratio, of every chunk built
 * and of the first load alone (what index.html loads; a chunk imported later, such as axios for
 * uploads, is not in it). The target, ≤ 1.40, is the first load's: what every visitor downloads.
 * A second build of each, one chunk per package, shows where the bytes come from.
 * Our app builds from the shared variant install; create-vue's project installs its own
 * package.json (cached like the shared install), so each side builds with its own choices.
 *
 *   npm run bench:client-size [-- <variant>]
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { execa } from 'execa'
import { createVueBin } from './lib/create-vue.js'
import { renderLinkedVariant, sharedNodeModules } from './lib/shared-install.js'
import { verdict } from './lib/report.js'

const createVue = createVueBin()

interface Sizes {
  js: number
  css: number
}

function gzippedSizes(dir: string, files: string[]): Sizes {
  const sizes: Sizes = { js: 0, css: 0 }
  for (const file of files) {
    const kind = file.endsWith('.js') ? 'js' : file.endsWith('.css') ? 'css' : undefined
    if (kind) sizes[kind] += gzipSync(readFileSync(join(dir, file))).length
  }
  return sizes
}

const allChunks = (distDir: string) => gzippedSizes(distDir, readdirSync(join(distDir, 'assets')).map((file) => join('assets', file)))

/** What index.html loads before anything else: its scripts, the chunks it preloads, its CSS. */
const firstLoad = (distDir: string) =>
  gzippedSizes(distDir, [...readFileSync(join(distDir, 'index.html'), 'utf8').matchAll(/(?:src|href)="\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]!))

async function viteBuild(cwd: string, config?: string): Promise<void> {
  const configArgs = config ? ['--config', config] : []
  await execa('node', [join(cwd, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', ...configArgs, '--logLevel', 'warn'], { cwd, stdio: 'inherit' })
}

/** Vue's own packages count as one. */
const PACKAGE_GROUP = String.raw`node_modules\/(?:@vue\/[^/]+|vue|((?:@[^/]+\/)?[^/]+))\/`

/**
 * The project built again with its own config and one chunk per npm package, into `outDir`:
 * gzipped chunk by chunk, the parts show what each package costs. Chunks compress a little
 * worse apart than together, so the parts add up to a little more than the one-bundle total.
 */
async function packageSizes(cwd: string, outDir: string): Promise<Map<string, number>> {
  writeFileSync(
    join(cwd, 'vite.by-package.config.ts'),
    `import { mergeConfig } from 'vite'
import base from './vite.config.ts'

const group = new RegExp(${JSON.stringify(PACKAGE_GROUP)})

const config = mergeConfig(base, { build: { outDir: ${JSON.stringify(outDir)}, emptyOutDir: true } })
// In place of the project's own chunking (mergeConfig would add to its groups, not replace them).
config.build.rolldownOptions = {
  ...config.build.rolldownOptions,
  output: {
    ...config.build.rolldownOptions?.output,
    codeSplitting: { includeDependenciesRecursively: false, groups: [{ debugName: 'by package', name: (id: string) => { const match = group.exec(id); return match ? 'pkg-' + (match[1] ?? 'vue').replace('/', '+') : null } }] },
  },
}
export default config
`,
  )
  await viteBuild(cwd, 'vite.by-package.config.ts')
  const sizes = new Map<string, number>()
  for (const file of readdirSync(join(outDir, 'assets'))) {
    if (!/\.(js|css)$/.test(file)) continue
    const name = file.startsWith('pkg-') ? file.slice(4).replace(/-[\w-]{8}\.js$/, '').replace('+', '/') : 'own code + CSS'
    sizes.set(name, (sizes.get(name) ?? 0) + gzipSync(readFileSync(join(outDir, 'assets', file))).length)
  }
  return sizes
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

const variant = process.argv[2] ?? 'sqlite'
const root = mkdtempSync(join(tmpdir(), 'cca-size-'))
try {
  const ours = join(root, variant)
  renderLinkedVariant(variant, ours, await sharedNodeModules())
  await viteBuild(ours)
  const theirs = await createVueProject(root)
  await viteBuild(theirs)

  const ourDist = join(ours, 'dist', 'client')
  const theirDist = join(theirs, 'dist')
  for (const [title, measure, target] of [
    ['every chunk', allChunks, false],
    ['first load', firstLoad, true],
  ] as const) {
    const x = measure(ourDist)
    const y = measure(theirDist)
    console.log(`${`gzipped, ${title}`.padEnd(24)} ${'js'.padStart(10)}  ${'css'.padStart(10)}  ${'total'.padStart(10)}`)
    for (const [name, sizes] of [[`ours (${variant})`, x], ['create-vue', y]] as const) {
      console.log(`${name.padEnd(24)} ${kb(sizes.js).padStart(10)}  ${kb(sizes.css).padStart(10)}  ${kb(sizes.js + sizes.css).padStart(10)}`)
    }
    const total = (x.js + x.css) / (y.js + y.css)
    const aim = target ? verdict(total <= 1.4, 'target ≤ 1.40') : 'no target: all that may ever load, lazy chunks included'
    console.log(`ratio: js ${(x.js / y.js).toFixed(2)}, css ${(x.css / y.css).toFixed(2)}, total ${total.toFixed(2)} (${aim})\n`)
  }

  const theirTotal = allChunks(theirDist)
  const ourParts = await packageSizes(ours, join(root, 'ours-by-package'))
  const theirParts = await packageSizes(theirs, join(root, 'create-vue-by-package'))
  console.log('by package: a second build with one chunk per package (chunks compress a little worse apart, so parts sum to more than the total)')
  console.log(`${'gzipped'.padEnd(16)} ${'ours'.padStart(10)}  ${'create-vue'.padStart(10)}  ${'÷ create-vue total'.padStart(18)}`)
  const names = [...new Set([...ourParts.keys(), ...theirParts.keys()])].sort((x, y) => (ourParts.get(y) ?? 0) - (ourParts.get(x) ?? 0))
  const size = (bytes: number | undefined) => (bytes === undefined ? '-' : kb(bytes))
  for (const name of names) {
    const share = ((ourParts.get(name) ?? 0) / (theirTotal.js + theirTotal.css)).toFixed(2)
    console.log(`${name.padEnd(16)} ${size(ourParts.get(name)).padStart(10)}  ${size(theirParts.get(name)).padStart(10)}  ${share.padStart(18)}`)
  }
} finally {
  rmSync(root, { recursive: true, force: true })
}
