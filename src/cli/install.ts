import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PACKAGE_MANAGERS, type PackageManager } from '../options.js'
import { toolStdout } from './output.js'

const LOCKFILES: [string, PackageManager][] = [
  ['package-lock.json', 'npm'],
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
]

/** The package manager an installed app uses: its `packageManager` field (yarn 4 writes one), else its lockfile. */
export function installedPackageManager(dir: string): PackageManager | undefined {
  const manifest = join(dir, 'package.json')
  try {
    const field = (JSON.parse(readFileSync(manifest, 'utf8')) as { packageManager?: unknown }).packageManager
    const name = typeof field === 'string' ? field.split('@')[0] : undefined
    if ((PACKAGE_MANAGERS as readonly (string | undefined)[]).includes(name)) return name as PackageManager
  } catch {
    // No package.json, or one that is not JSON: the lockfile still tells.
  }
  return LOCKFILES.find(([file]) => existsSync(join(dir, file)))?.[1]
}

/**
 * Runs `<pm> install` with its own progress output, then checks what it left: resolves to an
 * error message or null. An install that exits 0 but skipped native builds (pnpm 10 without an
 * approval, bun without trust) leaves an app that crashes on its first query, so it is a failure.
 */
export async function installDependencies(pm: PackageManager, cwd: string): Promise<string | null> {
  const { execa } = await import('execa')
  console.log(`\nInstalling dependencies with ${pm}…\n`)
  let output = ''
  try {
    // yarn 4 on CI (CI=true) refuses to write a lockfile; a project just generated has none to keep.
    const env = pm === 'yarn' ? { YARN_ENABLE_IMMUTABLE_INSTALLS: 'false' } : {}
    const result = await execa(pm, ['install'], { cwd, env, stdout: ['pipe', toolStdout()], stderr: ['pipe', 'inherit'], all: true })
    output = result.all ?? ''
  } catch (error) {
    const failure = error as { code?: string; exitCode?: number; shortMessage?: string }
    if (failure.code === 'ENOENT') return `${pm} was not found on PATH`
    return failure.exitCode !== undefined ? `${pm} install exited with code ${failure.exitCode}` : (failure.shortMessage ?? String(error))
  }
  const ignored = /Ignored build scripts: ([^\n.]+)/.exec(output)?.[1]
  if (ignored) return `${pm} install skipped the build scripts of ${ignored.trim()}`
  const unbuilt = await nativeDependenciesThatFailToLoad(cwd)
  return unbuilt.length ? `${pm} install finished, but ${unbuilt.join(' and ')} do${unbuilt.length === 1 ? 'es' : ''} not load (native build missing)` : null
}

/**
 * The app's own dependencies among those whose install scripts it allows (the native builds:
 * `trustedDependencies` of the generated package.json) that a fresh `node` cannot load.
 */
export async function nativeDependenciesThatFailToLoad(cwd: string): Promise<string[]> {
  const { execa } = await import('execa')
  const pkg = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; trustedDependencies?: string[] }
  const native = (pkg.trustedDependencies ?? []).filter((name) => pkg.dependencies?.[name] !== undefined)
  // yarn 4 installs Plug'n'Play: no node_modules, packages resolve through its runtime.
  const pnp = existsSync(join(cwd, '.pnp.cjs')) ? ['--require', join(cwd, '.pnp.cjs')] : []
  const failing: string[] = []
  for (const name of native) {
    const { exitCode } = await execa(process.execPath, [...pnp, '-e', `require(${JSON.stringify(name)})`], { cwd, reject: false, stdio: 'ignore' })
    if (exitCode !== 0) failing.push(name)
  }
  return failing
}
