import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import semver from 'semver'
import { TEMPLATES_DIR } from '../../src/generate/layers.js'
import { packageAt, pinnedVersions } from '../../src/generate/package-json.js'

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

/**
 * The generated app's `engines.node` is a promise: every package of the pinned tree must run on
 * its lowest Node version, or npm prints EBADENGINE there (nopt@10, through js-beautify 2, did).
 */
export function checkEngines(modules: string, range: string): void {
  const lowest = semver.minVersion(range)!
  const refusing = installedPackages(modules)
    .filter(({ pkg }) => pkg.engines?.node && semver.validRange(pkg.engines.node) && !semver.satisfies(lowest, pkg.engines.node))
    .map(({ pkg }) => `${pkg.name}@${pkg.version} (${pkg.engines!.node})`)
  if (refusing.length > 0) throw new Error(`the apps promise Node ${range}, but ${[...new Set(refusing)].join(', ')} do not run on ${lowest}: pin versions that do`)
}

interface Fragment {
  allowScripts?: Record<string, boolean>
  resolutions?: string[]
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

/**
 * yarn 1 gets `resolutions` (see finishPackageJson) where npm chooses by itself: each pins the
 * version npm's tree holds, so an app installed with yarn runs the same code as one installed
 * with npm, and a bump of the parent that wants another version stops here.
 */
export function checkResolutions(modules: string): void {
  const versions = pinnedVersions()
  const stale: string[] = []
  for (const { resolutions = [] } of layerFragments()) {
    for (const path of resolutions) {
      // The same split as finishPackageJson's: the package the path ends with, scoped or not.
      const child = packageAt(path)
      const parent = path.slice(0, -child.length - 1)
      // Node's lookup from the parent's folder: its own node_modules first, then the top level.
      const dir = [join(modules, parent, 'node_modules', child), join(modules, child)].find((candidate) => existsSync(join(candidate, 'package.json')))
      const installed = dir ? (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest).version : 'nothing'
      if (installed !== versions[child]) stale.push(`${path}: versions.json pins ${versions[child]}, npm installs ${installed}`)
    }
  }
  if (stale.length > 0) throw new Error(`yarn's resolutions are out of step with npm's tree: ${stale.join('; ')}`)
}
