import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import semver from 'semver'
import { TEMPLATES_DIR } from '../../src/generate/layers.js'

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

/** Every `allowScripts` entry of every layer's package.json fragment. */
export function approvedScripts(): Set<string> {
  const approved = new Set<string>()
  for (const layer of readdirSync(TEMPLATES_DIR)) {
    const fragment = join(TEMPLATES_DIR, layer, 'package.json')
    if (!existsSync(fragment)) continue
    const { allowScripts = {} } = JSON.parse(readFileSync(fragment, 'utf8')) as { allowScripts?: Record<string, boolean> }
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
  const versions = JSON.parse(readFileSync(join(TEMPLATES_DIR, 'versions.json'), 'utf8')) as Record<string, string>
  const stale: string[] = []
  for (const layer of readdirSync(TEMPLATES_DIR)) {
    const fragment = join(TEMPLATES_DIR, layer, 'package.json')
    if (!existsSync(fragment)) continue
    const { resolutions = [] } = JSON.parse(readFileSync(fragment, 'utf8')) as { resolutions?: string[] }
    for (const path of resolutions) {
      const [parent, child] = [path.slice(0, path.lastIndexOf('/')), path.slice(path.lastIndexOf('/') + 1)]
      // Node's lookup from the parent's folder: its own node_modules first, then the top level.
      const dir = [join(modules, parent, 'node_modules', child), join(modules, child)].find((candidate) => existsSync(join(candidate, 'package.json')))
      const installed = dir ? (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest).version : 'nothing'
      if (installed !== versions[child]) stale.push(`${path}: versions.json pins ${versions[child]}, npm installs ${installed}`)
    }
  }
  if (stale.length > 0) throw new Error(`yarn's resolutions are out of step with npm's tree: ${stale.join('; ')}`)
}
