import type { TemplateStore } from './templates/store.js'
import { defaultTemplates } from './templates/default-store.js'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies'] as const

/** templates/versions.json: the one place where generated apps' dependency versions live. */
export function pinnedVersions(templates: TemplateStore = defaultTemplates()): Record<string, string> {
  return JSON.parse(templates.read('versions.json').toString('utf8')) as Record<string, string>
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Objects merge key by key, arrays concatenate without repeats, anything else is replaced. */
export function deepMerge(target: JsonObject, source: JsonObject): JsonObject {
  const result: JsonObject = { ...target }
  for (const [key, value] of Object.entries(source)) {
    const current = result[key]
    if (isObject(current) && isObject(value)) result[key] = deepMerge(current, value)
    else if (Array.isArray(current) && Array.isArray(value)) result[key] = [...new Set([...current, ...value])]
    else result[key] = value
  }
  return result
}

/**
 * Turns the merged fragments' dependency name lists into sorted, pinned version maps, and the
 * layers' `allowScripts` (npm's list of packages whose install scripts may run: the native
 * builds) into the same list for pnpm (`pnpm.onlyBuiltDependencies`; pnpm 10 skips every other
 * build, leaving sqlite3 and bcrypt unbuilt), bun (`trustedDependencies`) and yarn 4
 * (`dependenciesMeta.<name>.built`; it disables every build script that is not marked so).
 */
export function finishPackageJson(merged: JsonObject, name: string, versions: Record<string, string>): JsonObject {
  const result: JsonObject = { ...merged, name }
  const allowScripts = merged.allowScripts
  if (isObject(allowScripts)) {
    const built = Object.keys(allowScripts).filter((dependency) => allowScripts[dependency] === true).sort()
    result.pnpm = deepMerge(isObject(merged.pnpm) ? merged.pnpm : {}, { onlyBuiltDependencies: built })
    result.trustedDependencies = built
    result.dependenciesMeta = deepMerge(isObject(merged.dependenciesMeta) ? merged.dependenciesMeta : {}, Object.fromEntries(built.map((dependency) => [dependency, { built: true }])))
  }
  // A package one layer runs with and another only tests with (a provider's server library) is a dependency, listed once.
  const runtime = new Set(Array.isArray(merged.dependencies) ? merged.dependencies.map(String) : [])
  for (const field of DEPENDENCY_FIELDS) {
    const names = merged[field]
    if (names === undefined) continue
    if (!Array.isArray(names)) throw new Error(`package.json fragments list ${field} as an array of names`)
    const sorted = [...names].map(String).filter((dependency) => field === 'dependencies' || !runtime.has(dependency)).sort()
    result[field] = Object.fromEntries(sorted.map((dependency) => [dependency, pinnedVersion(versions, dependency)]))
  }
  // Yarn resolves each range on its own, newest first, where npm, pnpm and bun reuse the copy the
  // app pins: without this, vitest's `vite` range brought yarn a second, newer vite (8.4.0, whose
  // own dependency the registry does not have) beside the app's, and its install failed.
  const single = merged.resolutions
  if (single !== undefined) {
    if (!Array.isArray(single)) throw new Error('package.json fragments list resolutions as an array of names')
    result.resolutions = Object.fromEntries([...single].map(String).sort().map((dependency) => [dependency, pinnedVersion(versions, dependency)]))
  }
  return result
}

function pinnedVersion(versions: Record<string, string>, dependency: string): string {
  const version = versions[dependency]
  if (!version) throw new Error(`${dependency} has no pinned version in templates/versions.json`)
  return version
}
