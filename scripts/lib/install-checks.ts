import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import semver from 'semver'
import { TEMPLATES_DIR } from '../../src/generate/templates/folder.js'

const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall']

interface Manifest {
  name: string
  version: string
  scripts?: Record<string, string>
  engines?: { node?: string }
}

/** Every installed package under `modules`, nested ones too, with its folder. */
function installedPackages(modules: string): Array<{ dir: string; pkg: Manifest }> {
  const found: Array<{ dir: string; pkg: Manifest }> = []
  const visit = (dir: string) => {
    if (!existsSync(dir)) return
    for (const entry of readdirSync(dir)) {
      if (entry.startsWith('.')) continue
      if (entry.startsWith('@')) {
        for (const scoped of readdirSync(join(dir, entry))) inspect(join(dir, entry, scoped))
      } else inspect(join(dir, entry))
    }
  }
  const inspect = (pkgDir: string) => {
    const manifest = join(pkgDir, 'package.json')
    if (!existsSync(manifest)) return
    found.push({ dir: pkgDir, pkg: JSON.parse(readFileSync(manifest, 'utf8')) as Manifest })
    visit(join(pkgDir, 'node_modules'))
  }
  visit(modules)
  return found
}

/** Packages that run an install script, as npm decides it. */
export function packagesWithInstallScripts(modules: string): Set<string> {
  const found = new Set<string>()
  for (const { dir, pkg } of installedPackages(modules)) {
    // npm runs `node-gyp rebuild` for a binding.gyp without an install script of its own.
    if (INSTALL_SCRIPTS.some((name) => pkg.scripts?.[name]) || existsSync(join(dir, 'binding.gyp'))) found.add(pkg.name)
  }
  return found
}

/** The generated apps' `engines.node`, as templates/base/package.json states it. */
export function appEngines(): string {
  return (JSON.parse(readFileSync(join(TEMPLATES_DIR, 'base', 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node
}

/**
 * The generated app's `engines.node` is a promise: it names exactly the Node majors that CI
 * proves, and every package of the installed tree runs on the lowest version it allows in each
 * of them, or npm prints EBADENGINE there and yarn 1 refuses to install (nopt@10, through
 * js-beautify 2, and strip-json-comments@5.1.0, through pino-pretty 13.2, did).
 */
export function checkEngines(modules: string, range: string, provenMajors: readonly number[]): void {
  const claimed = Array.from({ length: 40 }, (_, major) => major).filter((major) => semver.intersects(range, `${major}.x`))
  if (claimed.join() !== [...provenMajors].sort((a, b) => a - b).join()) {
    throw new Error(`engines.node ${range} allows Node ${claimed.join(', ')}; CI proves ${provenMajors.join(', ')}`)
  }
  const packages = installedPackages(modules).filter(({ pkg }) => pkg.engines?.node && semver.validRange(pkg.engines.node))
  const refusing = new Set<string>()
  for (const major of claimed) {
    const floor = lowestIn(range, major)
    for (const { pkg } of packages) if (!semver.satisfies(floor, pkg.engines!.node!)) refusing.add(`${pkg.name}@${pkg.version} (${pkg.engines!.node}) on ${floor}`)
  }
  if (refusing.size > 0) throw new Error(`the apps promise Node ${range}, but ${[...refusing].join(', ')}: pin versions that run there`)
}

/** The lowest version `range` allows within one major. */
function lowestIn(range: string, major: number): string {
  // minVersion answers null for a comparator set that allows nothing in this major.
  const within = new semver.Range(range).set
    .map((comparators) => semver.minVersion(`${comparators.map((comparator) => comparator.value).join(' ')} >=${major}.0.0 <${major + 1}.0.0-0`))
    .filter((version) => version !== null)
  return semver.sort(within)[0]!.version
}

interface Fragment {
  allowScripts?: Record<string, boolean>
}

/** Every layer's package.json fragment. */
function layerFragments(): Fragment[] {
  return readdirSync(TEMPLATES_DIR)
    .map((layer) => join(TEMPLATES_DIR, layer, 'package.json'))
    .filter((fragment) => existsSync(fragment))
    .map((fragment) => JSON.parse(readFileSync(fragment, 'utf8')) as Fragment)
}

/** Every `allowScripts` entry of every layer's package.json fragment. */
export function approvedScripts(): Set<string> {
  const approved = new Set<string>()
  for (const { allowScripts = {} } of layerFragments()) {
    for (const [name, allowed] of Object.entries(allowScripts)) if (allowed) approved.add(name)
  }
  return approved
}

/**
 * npm 11 warns about, and npm 12 skips, install scripts that `allowScripts` does not approve: a
 * generated app must install without a warning the user has to act on, so every one that the
 * pinned dependency tree runs is approved by a layer, and nothing else is.
 */
export function checkAllowScripts(modules: string): void {
  const needed = packagesWithInstallScripts(modules)
  const approved = approvedScripts()
  const missing = [...needed].filter((name) => !approved.has(name))
  const stale = [...approved].filter((name) => !needed.has(name))
  if (missing.length > 0 || stale.length > 0) {
    throw new Error(
      `allowScripts in templates/*/package.json is out of step with the dependency tree: ` +
        `approve ${missing.join(', ') || 'nothing more'}; drop ${stale.join(', ') || 'nothing'}`,
    )
  }
}
