import { createHash, randomBytes } from 'node:crypto'
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { execa } from 'execa'
import { generate } from '../../src/generate/index.js'
import { pinnedVersions } from '../../src/generate/package-json.js'
import { variantAnswers } from '../../src/variants.js'

type Dependencies = Record<string, string>

/**
 * What one shared install must hold: every dependency any variant can have, at its pinned
 * version. That is templates/versions.json: a variant's package.json takes each version from there
 * (src/generate/package-json.ts refuses an unpinned name), and test/generate.test.ts checks that
 * the release set uses every pinned one.
 * Rendering every variant to learn the same took five minutes at 9,216 variants, once per script.
 */
export function unionDependencies(): Dependencies {
  return Object.fromEntries(Object.entries(pinnedVersions()).sort(([a], [b]) => a.localeCompare(b)))
}

/**
 * One `npm install` for all variants, cached by the exact dependency set and Node version, so
 * sqlite3's compile (about 90 s here) and the download happen once per machine, not per variant.
 * Returns the node_modules folder that each generated variant links to.
 */
export async function sharedNodeModules(): Promise<string> {
  const dependencies = unionDependencies()
  const key = createHash('sha256')
    .update(JSON.stringify(dependencies))
    .update(process.version)
    .digest('hex')
    .slice(0, 16)
  const root = join(process.env.CCA_CACHE_DIR ?? join(homedir(), '.cache', 'create-cookie-auth-app'), 'deps', key)
  const modules = join(root, 'node_modules')
  const marker = join(root, '.installed')
  if (existsSync(marker)) {
    console.log(`shared install: reusing ${modules}`)
    return modules
  }
  // Two scripts started together (a variant run and a dev render) must not install into one folder.
  // The lock is a folder holding the installer's pid, so a lock left by a killed install is taken over.
  const lock = `${root}.lock`
  mkdirSync(dirname(lock), { recursive: true })
  try {
    mkdirSync(lock)
    writeFileSync(join(lock, 'pid'), String(process.pid))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    if (!lockHolderAlive(lock)) {
      rmSync(lock, { recursive: true, force: true })
      return sharedNodeModules()
    }
    console.log(`shared install: another process is installing into ${root}; waiting`)
    while (!existsSync(marker) && existsSync(lock) && lockHolderAlive(lock)) await new Promise((resolve) => setTimeout(resolve, 1000))
    return sharedNodeModules()
  }
  try {
    return await install(root, dependencies)
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

function lockHolderAlive(lock: string): boolean {
  let pid: number
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'))
  } catch {
    // The holder writes its pid right after making the folder; an old folder without one is a dead holder's.
    try {
      return Date.now() - statSync(lock).mtimeMs < 10_000
    } catch {
      return false
    }
  }
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function install(root: string, dependencies: Record<string, string>): Promise<string> {
  const modules = join(root, 'node_modules')
  const marker = join(root, '.installed')
  rmSync(root, { recursive: true, force: true })
  mkdirSync(root, { recursive: true })
  writeFileSync(join(root, 'package.json'), `${JSON.stringify({ name: 'cca-variant-deps', private: true, type: 'module', dependencies }, null, 2)}\n`)
  console.log(`shared install: installing ${Object.keys(dependencies).length} packages into ${root}`)
  const started = Date.now()
  await execa('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root, stdio: 'inherit' })
  writeFileSync(marker, new Date().toISOString())
  console.log(`shared install: done in ${((Date.now() - started) / 1000).toFixed(0)} s`)
  return modules
}

/** Renders variant `id` into `dir` as a user would get it (fresh secrets), linked to `modules`. */
export function renderLinkedVariant(id: string, dir: string, modules: string): string[] {
  const files = generate(variantAnswers(id), dir, { random: randomBytes })
  const link = join(dir, 'node_modules')
  // A folder rendered before the dependencies changed still links to the old install.
  if (existsSync(link) && lstatSync(link).isSymbolicLink() && readlinkSync(link) !== modules) unlinkSync(link)
  if (!existsSync(link)) symlinkSync(modules, link, 'dir')
  return files
}
