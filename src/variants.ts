import { answersFromFlags, withDefaults } from './cli/answers.js'
import { buildProgram } from './cli/program.js'
import { type Answers, OPTIONS, variesByChoice } from './options.js'
import { product, uncovered } from './pairwise.js'
import { CI_COVER } from './ci-cover.js'
import { RELEASE_COVER } from './release-cover.js'
import { VARIANT_COVER } from './variant-cover.js'

/**
 * A test variant: the flags a user would type, and whether the app runs on Redis (REDIS_URL is
 * not a question of the CLI but changes what the app does at run time: caches, queue, limits).
 */
export interface Variant {
  id: string
  args: readonly string[]
  redis: boolean
}

/** One way variants differ, its default value first; `tag` names a value in variant ids. */
export type Dimension = { tag: string; args: string[]; redis?: boolean }[]

/**
 * From the options table: rows with choices value by value, the others by their `matrix` tag; then
 * Redis. A row that `needs` another is no dimension of its own but a third value of the one it
 * needs (`teams`, `teams-sso`), so that no variant holds it without what it needs.
 */
function dimensions(): Dimension[] {
  const dimensions: Dimension[] = []
  const tagged = new Map<string, string[]>()
  const needing: { tag: string; args: string[]; needs: string }[] = []
  for (const option of OPTIONS) {
    if (variesByChoice(option)) dimensions.push(option.choices!.map((value) => ({ tag: value, args: [option.flag, value] })))
    if (!option.matrix) continue
    const args = option.matrix.custom === undefined ? [option.flag] : [option.flag, option.matrix.custom]
    if (option.needs?.length) {
      const needed = option.needs.map((key) => OPTIONS.find((other) => other.key === key)?.matrix?.tag)
      if (needed.length !== 1 || !needed[0]) throw new Error(`${option.flag}: the variants cover a row that needs one other row with a matrix tag`)
      needing.push({ tag: option.matrix.tag, args, needs: needed[0] })
      continue
    }
    tagged.set(option.matrix.tag, [...(tagged.get(option.matrix.tag) ?? []), ...args])
  }
  for (const [tag, args] of tagged) {
    const further = needing.filter((row) => row.needs === tag).map((row) => ({ tag: `${tag}-${row.tag}`, args: [...args, ...row.args] }))
    dimensions.push([{ tag: '', args: [] }, { tag, args }, ...further])
  }
  dimensions.push([{ tag: '', args: [] }, { tag: 'redis', args: [], redis: true }])
  return dimensions
}

export const DIMENSIONS = dimensions()

/** The variant of one value index per dimension. */
export function variantOf(row: readonly number[]): Variant {
  const values = row.map((index, dimension) => DIMENSIONS[dimension]![index]!)
  return {
    id: values.map((value) => value.tag).filter(Boolean).join('-'),
    args: values.flatMap((value) => value.args),
    redis: values.some((value) => value.redis),
  }
}

const ALL_ROWS = product(DIMENSIONS.map((dimension) => dimension.length))
/**
 * The full product, the all-defaults variant first: `npm run test:variants -- --all`. A couple of
 * hundred small objects today, doubling with each boolean option: cheap, unlike a search.
 */
export const ALL_VARIANTS: readonly Variant[] = ALL_ROWS.map(variantOf)
export const ALL_VARIANT_IDS = ALL_VARIANTS.map((variant) => variant.id)
const BY_ID = new Map(ALL_VARIANTS.map((variant) => [variant.id, variant]))
const ROW_OF = new Map(ALL_ROWS.map((row, index) => [ALL_VARIANT_IDS[index]!, row]))

/** A variant's value index per dimension, or undefined for an id the options table does not make. */
export function variantRow(id: string): number[] | undefined {
  return ROW_OF.get(id)
}

/** A dimension's value as people read it: its tag, or for a default without one, `no <other tag>`. */
function valueName(dimension: number, value: number): string {
  const values = DIMENSIONS[dimension]!
  return values[value]!.tag || `no ${values.find((other) => other.tag)!.tag}`
}

/**
 * The pairs of values that no variant of `ids` holds together (`mysql × no redis`), or with
 * `t = 3` the triples (`mysql × no redis × teams`).
 */
export function uncoveredByVariants(ids: readonly string[], t = 2): string[] {
  const rows = ids.map((id) => variantRow(id)).filter((row) => row !== undefined)
  return uncovered(
    DIMENSIONS.map((dimension) => dimension.length),
    rows,
    t,
  ).map((tuple) => Array.from({ length: t }, (_, e) => valueName(tuple[2 * e]!, tuple[2 * e + 1]!)).join(' × '))
}

/**
 * What the unit tests render and snapshot, and `test:variants -- --pairwise` runs: a
 * pairwise-covering set (every value of every dimension meets every value of every other),
 * committed in variant-cover.ts rather than searched for at each import, so the variants and
 * their snapshot folders keep their names until someone decides otherwise.
 * test/variant-cover.test.ts fails when the options table outgrows it. Not checked here: an import
 * that threw would also stop `npm run variants:cover`, the script that repairs the file.
 */
export const VARIANT_IDS: readonly string[] = VARIANT_COVER

/**
 * What `npm test` runs as apps: every value of every dimension in some variant (strength 1), the
 * fewest of the release set that do, committed in ci-cover.ts. The pairwise set ran there until
 * its ten apps took CI to 54 minutes; it is rendered and snapshotted still, and runs as apps in the
 * release gate. test/variant-cover.test.ts fails when the options table outgrows it.
 */
export const CI_VARIANT_IDS: readonly string[] = CI_COVER

/**
 * What `npm run test:release` runs: a 3-wise covering set (every three values of any three
 * dimensions meet in some variant), committed in release-cover.ts, CI's set first so that the
 * release gate runs all CI runs and more. test/release-cover.test.ts fails when it goes stale.
 */
export const RELEASE_VARIANT_IDS: readonly string[] = RELEASE_COVER

export function variant(id: string): Variant {
  const found = BY_ID.get(id)
  if (found) return found
  if (VARIANT_IDS.includes(id)) throw new Error(`src/variant-cover.ts names "${id}", which the options table no longer makes: run npm run variants:cover`)
  if (RELEASE_VARIANT_IDS.includes(id)) throw new Error(`src/release-cover.ts names "${id}", which the options table no longer makes: run npm run variants:cover`)
  throw new Error(`unknown variant "${id}"; tested by npm test: ${VARIANT_IDS.join(', ')}`)
}

/**
 * The answers of a test variant, parsed from its flags exactly as the CLI would, with
 * install and git off: the variant run installs once for all variants and needs no repository.
 */
export function variantAnswers(id: string): Answers {
  const program = buildProgram().parse([...variant(id).args, '--no-install', '--no-git'], { from: 'user' })
  return withDefaults(answersFromFlags(program.opts()), { userAgent: undefined, gitAvailable: false })
}
