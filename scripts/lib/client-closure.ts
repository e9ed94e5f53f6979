/**
 * What a client test file loads of the app: the file, every module it imports (`@/…` and relative
 * specifiers, followed through `.vue` and `.ts` files, `import.meta.glob` patterns expanded), and
 * the test set-up every file runs with. Packages are left out: every variant links the same
 * install. Two runs of a test whose closure has the same bytes test the same thing, whatever else
 * the variant holds, so `test:variants` runs such a file once (scripts/lib/proved-tests.ts).
 *
 * The layers' catalogues are the exception: the set-up loads every layer's English texts, but a
 * key is defined once across the catalogues (test/i18n-catalogues.test.ts), so a layer's texts
 * count only for a test that loads one of the layer's modules.
 */
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'

/** The files every client test runs with: the configs and the set-up file. */
const ROOTS = ['vitest.config.ts', 'vite.config.ts', 'tsconfig.client.json', 'client/tests/support/setup.ts']
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\bvi\.mock\(\s*)['"]([^'"\n]+)['"]/g
const GLOB = /import\.meta\.glob(?:<[^>]*>)?\(\s*(\[[^\]]*\]|'[^']*'|"[^"]*")/g
const LAYER_CATALOGUE = /^client\/src\/features\/([^/]+)\/locales\/[^/]+\.json$/
const LAYER_FILE = /^client\/src\/features\/([^/]+)\//

const isFile = (path: string) => existsSync(path) && statSync(path).isFile()

/** `@/x` and relative specifiers to a file of the app; null for a package, undefined when not found. */
function resolveSpecifier(cwd: string, from: string, specifier: string): string | null | undefined {
  const bare = specifier.split('?')[0]!
  const base = bare.startsWith('@/') ? join(cwd, 'client/src', bare.slice(2)) : bare.startsWith('.') ? join(dirname(from), bare) : null
  if (base === null) return null
  const candidates = [base, `${base}.ts`, `${base}.vue`, `${base}.js`, `${base}.json`, join(base, 'index.ts'), base.replace(/\.js$/, '.ts')]
  return candidates.find(isFile)
}

/** The files a glob pattern (`*` within a segment, as the app's patterns are) matches; undefined for other patterns. */
function expandGlob(cwd: string, from: string, pattern: string): string[] | undefined {
  if (/\*\*|[{}[\]?!]/.test(pattern)) return undefined
  const start = pattern.startsWith('@/') ? join(cwd, 'client/src') : pattern.startsWith('.') ? dirname(from) : undefined
  if (start === undefined) return undefined
  let paths = [start]
  for (const segment of (pattern.startsWith('@/') ? pattern.slice(2) : pattern).split('/')) {
    if (segment === '.' || segment === '') continue
    if (segment === '..') {
      paths = paths.map((path) => dirname(path))
      continue
    }
    const match = new RegExp(`^${segment.replace(/[.+^$()|\\]/g, '\\$&').replaceAll('*', '[^/]*')}$`)
    paths = paths.flatMap((path) => (existsSync(path) && statSync(path).isDirectory() ? readdirSync(path).filter((name) => match.test(name)).map((name) => join(path, name)) : []))
  }
  return paths.filter(isFile).sort()
}

/** The app files `file` loads directly; undefined when one cannot be told. */
function importsOf(cwd: string, file: string): string[] | undefined {
  if (!/\.(ts|vue|js)$/.test(file)) return []
  // Comments name modules in examples: only code counts (a glob's `/*/` is no comment, so only
  // those that begin a line).
  const text = readFileSync(file, 'utf8').replace(/^\s*\/\*[\s\S]*?\*\/|^\s*<!--[\s\S]*?-->|^\s*\/\/.*$/gm, '')
  const found: string[] = []
  for (const [, specifier] of text.matchAll(SPECIFIER)) {
    const resolved = resolveSpecifier(cwd, file, specifier!)
    if (resolved === undefined) return undefined
    if (resolved !== null) found.push(resolved)
  }
  for (const [, argument] of text.matchAll(GLOB)) {
    for (const [, pattern] of argument!.matchAll(/['"]([^'"]+)['"]/g)) {
      const matched = expandGlob(cwd, file, pattern!)
      if (matched === undefined) return undefined
      found.push(...matched)
    }
  }
  return found
}

/**
 * A key for each client test file of the app in `cwd` (paths relative to it): the hash of its
 * closure's paths and bytes, the app's name (in the page title) left out. Undefined for a file
 * whose closure cannot be told: it always runs.
 */
export function clientTestKeys(cwd: string, files: string[]): Map<string, string | undefined> {
  const name = basename(cwd)
  const direct = new Map<string, string[] | undefined>()
  const edges = (file: string) => {
    if (!direct.has(file)) direct.set(file, importsOf(cwd, file))
    return direct.get(file)
  }
  const keys = new Map<string, string | undefined>()
  for (const file of files) {
    const seen = new Set<string>()
    const queue = [join(cwd, file), ...ROOTS.map((root) => join(cwd, root)).filter(isFile)]
    let known = true
    while (queue.length > 0 && known) {
      const next = queue.pop()!
      if (seen.has(next)) continue
      seen.add(next)
      const found = edges(next)
      if (found === undefined) known = false
      else queue.push(...found)
    }
    if (!known) {
      keys.set(file, undefined)
      continue
    }
    const paths = [...seen].map((path) => relative(cwd, path))
    const layers = new Set(paths.filter((path) => !LAYER_CATALOGUE.test(path)).flatMap((path) => LAYER_FILE.exec(path)?.[1] ?? []))
    const hash = createHash('sha256')
    for (const path of paths.filter((path) => !LAYER_CATALOGUE.test(path) || layers.has(LAYER_CATALOGUE.exec(path)![1]!)).sort()) {
      hash.update(`${path}\0`).update(readFileSync(join(cwd, path), 'utf8').replaceAll(name, '\0'))
    }
    keys.set(file, hash.digest('hex'))
  }
  return keys
}
