import { NodeTypes, parse, type RootNode, type TemplateChildNode } from '@vue/compiler-dom'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderProject } from '../src/generate/index.js'
import { VARIANT_IDS, variantAnswers } from '../src/variants.js'
import { countingRandom } from './helpers/random.js'

/**
 * Every text a person reads in a generated client comes from the catalogues
 * (`client/src/locales/<locale>.json` and `locales/pages/<locale>.json`, and each layer's
 * `client/src/features/<layer>/locales/`),
 * checked on every variant of the pairwise set, rendered in memory.
 */
const LOCALES = ['en', 'de'] as const

// Attributes (and the components' props that end up as one or as text) a person reads or hears.
const USER_FACING = new Set([
  'alt',
  'aria-description',
  'aria-label',
  'aria-placeholder',
  'aria-roledescription',
  'aria-valuetext',
  'confirm-label',
  'hint',
  'intro',
  'label',
  'message',
  'placeholder',
  'title',
])

const CATALOGUE = /^client\/src\/(?:features\/[^/]+\/)?locales\/(?:pages\/)?([^/]+)\.json$/
const KEY = /^[a-zA-Z][\w-]*(?:\.[\w-]+)+$/
const LETTER = /\p{L}/u

type Files = Map<string, Buffer>

/** `{ a: { b: 'x' } }` → `['a.b', 'x']`. */
function flatten(tree: Record<string, unknown>, prefix = ''): [string, unknown][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    value && typeof value === 'object' ? flatten(value as Record<string, unknown>, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  )
}

/** Each locale's keys, with the file each came from; a key two files both define is reported. */
function catalogues(files: Files) {
  const keys = new Map<string, Map<string, string>>(LOCALES.map((locale) => [locale, new Map()]))
  const clashes: string[] = []
  for (const [path, content] of files) {
    const locale = CATALOGUE.exec(path)?.[1]
    if (!locale) continue
    const into = keys.get(locale)
    if (!into) {
      clashes.push(`${path}: a locale the app does not list`)
      continue
    }
    for (const [key, text] of flatten(JSON.parse(content.toString()))) {
      if (typeof text !== 'string' || !text.trim()) clashes.push(`${path}: ${key} is not a text`)
      if (into.has(key)) clashes.push(`${path}: ${key} is also in ${into.get(key)}`)
      into.set(key, path)
    }
  }
  return { keys, clashes }
}

// Single- and double-quoted strings apart, so one inside the other (`:label="$t('x.y')"`) counts too.
const quoted = (code: string) => [...code.matchAll(/'([^'\n]*)'/g), ...code.matchAll(/"([^"\n]*)"/g)].map((m) => m[1]!)
const templateLiterals = (code: string) => [...code.matchAll(/`([^`]*)`/g)].map((m) => m[1]!)

/**
 * Literal prose in a bound expression: a string with a letter that is not a catalogue key (nor a
 * key's built prefix), and not a value compared with (`state === 'failed'`).
 */
function proseIn(code: string): string[] {
  const compared = /(?:===|!==)\s*$/
  const strings = [
    ...[...code.matchAll(/'([^'\n]*)'/g)].filter((m) => !compared.test(code.slice(0, m.index))).map((m) => m[1]!),
    ...templateLiterals(code).map((literal) => literal.replace(/\$\{[^}]*\}/g, '')),
  ]
  return strings.filter((text) => LETTER.test(text) && !KEY.test(text) && !/^[a-zA-Z][\w.-]*\.$/.test(text))
}

/** The literal texts of a component's template: text, user-facing attributes, strings in expressions. */
function literalTexts(source: string): string[] {
  const root: RootNode = parse(source, { parseMode: 'sfc', comments: false })
  const template = root.children.find((node) => node.type === NodeTypes.ELEMENT && node.tag === 'template')
  const found: string[] = []
  const visit = (node: TemplateChildNode) => {
    if (node.type === NodeTypes.TEXT) {
      if (LETTER.test(node.content)) found.push(node.content.trim())
    } else if (node.type === NodeTypes.INTERPOLATION) {
      if (node.content.type === NodeTypes.SIMPLE_EXPRESSION) found.push(...proseIn(node.content.content))
    } else if (node.type === NodeTypes.ELEMENT) {
      for (const prop of node.props) {
        if (prop.type === NodeTypes.ATTRIBUTE) {
          if (USER_FACING.has(prop.name) && prop.value && LETTER.test(prop.value.content)) found.push(`${prop.name}="${prop.value.content}"`)
        } else if (prop.name === 'bind' && prop.arg?.type === NodeTypes.SIMPLE_EXPRESSION && USER_FACING.has(prop.arg.content)) {
          if (prop.exp?.type === NodeTypes.SIMPLE_EXPRESSION) found.push(...proseIn(prop.exp.content).map((text) => `:${prop.arg!.type === NodeTypes.SIMPLE_EXPRESSION ? prop.arg!.content : ''}: ${text}`))
        }
      }
      node.children.forEach(visit)
    } else if (node.type === NodeTypes.IF) {
      node.branches.forEach((branch) => branch.children.forEach(visit))
    } else if (node.type === NodeTypes.FOR) {
      node.children.forEach(visit)
    }
  }
  if (template?.type === NodeTypes.ELEMENT) template.children.forEach(visit)
  return found
}

/** Keys a source file names: every quoted key-shaped string, and the prefixes of built keys (`activity.${type}`). */
function keyUses(source: string) {
  const names = new Set(quoted(source).filter((text) => KEY.test(text)))
  const prefixes = new Set(
    templateLiterals(source)
      .map((literal) => /^([a-zA-Z][\w.-]*\.)\$\{/.exec(literal)?.[1])
      .filter((prefix): prefix is string => !!prefix),
  )
  // What `$t('…')`, `t('…')`, `te('…')` and `keypath="…"` ask for: these must exist.
  const asked = [...source.matchAll(/(?:\$t|\bt|\bte)\(\s*(['"])([^'"]+)\1|keypath="([^"]+)"/g)].map((m) => (m[2] ?? m[3])!)
  return { names, prefixes, asked }
}

/**
 * The client files in the first load: what `main.ts` imports without `import()`, and what those
 * import in turn. Pages and dialogs loaded later are left out.
 */
function firstLoad(files: Files): string[] {
  const found = new Set<string>()
  const visit = (path: string) => {
    if (found.has(path)) return
    found.add(path)
    const source = files.get(path)!.toString()
    for (const [, spec] of source.matchAll(/^import\s+(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) {
      if (!spec!.startsWith('@/') && !spec!.startsWith('.')) continue
      const base = spec!.startsWith('@/') ? `client/src/${spec!.slice(2)}` : join(dirname(path), spec!)
      const target = [base, `${base}.ts`, `${base}/index.ts`].find((candidate) => /\.(vue|ts)$/.test(candidate) && files.has(candidate))
      if (target) visit(target)
    }
  }
  visit('client/src/main.ts')
  return [...found]
}

describe.each(VARIANT_IDS)('the %s variant’s texts', (id) => {
  const files: Files = renderProject(variantAnswers(id), 'x', { random: countingRandom() })
  const sources = [...files].filter(([path]) => path.startsWith('client/src/') && /\.(vue|ts)$/.test(path))
  const { keys, clashes } = catalogues(files)
  const en = keys.get('en')!

  it('has its catalogues, each key defined once', () => {
    expect(en.size).toBeGreaterThan(0)
    expect(clashes).toEqual([])
  })

  it('holds no literal text in a template', () => {
    const literals = sources
      .filter(([path]) => path.endsWith('.vue'))
      .flatMap(([path, content]) => literalTexts(content.toString()).map((text) => `${path}: ${text}`))
    expect(literals).toEqual([])
  })

  it.each(LOCALES.filter((locale) => locale !== 'en'))('has every English key in %s, and no other, in the same part', (locale) => {
    const other = keys.get(locale)!
    expect([...en.keys()].filter((key) => !other.has(key)).map((key) => `${key} (${en.get(key)})`)).toEqual([])
    expect([...other.keys()].filter((key) => !en.has(key)).map((key) => `${key} (${other.get(key)})`)).toEqual([])
    const elsewhere = [...other].filter(([key, path]) => en.has(key) && path !== en.get(key)!.replace(/en\.json$/, `${locale}.json`))
    expect(elsewhere.map(([key, path]) => `${key} (${path})`)).toEqual([])
  })

  it('has every text the first page shows in the first load', () => {
    const later = new Set([...en].filter(([, path]) => path.includes('/locales/pages/')).map(([key]) => key))
    expect(later.size).toBeGreaterThan(0)
    const needed = firstLoad(files).flatMap((path) => [...keyUses(files.get(path)!.toString()).names].map((key) => [path, key] as const))
    expect(needed.length).toBeGreaterThan(0)
    expect(needed.filter(([, key]) => later.has(key)).map(([path, key]) => `${key} (${path})`)).toEqual([])
  })

  it('uses every key, and asks for none that is missing', () => {
    const uses = sources.map(([, content]) => keyUses(content.toString()))
    const named = new Set(uses.flatMap((use) => [...use.names]))
    const prefixes = uses.flatMap((use) => [...use.prefixes])
    const unused = [...en.keys()].filter((key) => !named.has(key) && !prefixes.some((prefix) => key.startsWith(prefix)))
    expect(unused.map((key) => `${key} (${en.get(key)})`)).toEqual([])
    const missing = [...new Set(uses.flatMap((use) => use.asked))].filter((key) => !en.has(key))
    expect(missing).toEqual([])
  })
})
