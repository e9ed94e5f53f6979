import { answersFromFlags, withDefaults } from './cli/answers.js'
import { buildProgram } from './cli/program.js'
import { type Answers, OPTIONS } from './options.js'

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
type Dimension = { tag: string; args: string[]; redis?: boolean }[]

/** From the options table: rows with choices value by value, the others by their `matrix` tag; then Redis. */
function dimensions(): Dimension[] {
  const dimensions: Dimension[] = []
  const tagged = new Map<string, string[]>()
  for (const option of OPTIONS) {
    if (option.choices && option.prompt && !option.multiple) dimensions.push(option.choices.map((value) => ({ tag: value, args: [option.flag, value] })))
    if (!option.matrix) continue
    const args = option.matrix.custom === undefined ? [option.flag] : [option.flag, option.matrix.custom]
    tagged.set(option.matrix.tag, [...(tagged.get(option.matrix.tag) ?? []), ...args])
  }
  for (const [tag, args] of tagged) dimensions.push([{ tag: '', args: [] }, { tag, args }])
  dimensions.push([{ tag: '', args: [] }, { tag: 'redis', args: [], redis: true }])
  return dimensions
}

const DIMENSIONS = dimensions()
type Pick = number[]

function variantOf(pick: Pick): Variant {
  const values = pick.map((index, dimension) => DIMENSIONS[dimension]![index]!)
  return {
    id: values.map((value) => value.tag).filter(Boolean).join('-'),
    args: values.flatMap((value) => value.args),
    redis: values.some((value) => value.redis),
  }
}

/** Every combination of every dimension, the all-defaults one first. */
function product(): Pick[] {
  return DIMENSIONS.reduce<Pick[]>((picks, dimension) => picks.flatMap((pick) => dimension.map((_, index) => [...pick, index])), [[]])
}

/**
 * A pairwise-covering subset of the product: every value of every dimension meets every value of
 * every other in some variant. The smallest such set that starts with the all-defaults variant,
 * found by a depth-first search (cover the first pair still uncovered, candidates in product
 * order), so the set is stable; each variant costs CI minutes, and greedy picking took one or
 * two more. A variant covers exactly one pair of each two dimensions, so the two dimensions with
 * the most pairs left bound how many variants are still needed.
 */
function pairwise(candidates: Pick[]): Pick[] {
  const dimensionPairs = DIMENSIONS.flatMap((_, i) => DIMENSIONS.slice(i + 1).map((_, offset) => [i, i + 1 + offset] as const))
  // Pair p of dimensions (i, j) holding values (a, b): a number, for a flat counting array.
  const offsets = dimensionPairs.map(([i, j]) => DIMENSIONS[i]!.length * DIMENSIONS[j]!.length)
  const starts = offsets.map((_, k) => offsets.slice(0, k).reduce((sum, n) => sum + n, 0))
  const pairsOf = (pick: Pick) => dimensionPairs.map(([i, j], k) => starts[k]! + pick[i]! * DIMENSIONS[j]!.length + pick[j]!)
  const candidatePairs = candidates.map(pairsOf)
  const timesCovered = new Uint8Array(offsets.reduce((sum, n) => sum + n, 0))
  const chosen: number[] = []
  const take = (index: number, step: 1 | -1) => {
    for (const pair of candidatePairs[index]!) timesCovered[pair]! += step
  }
  const needed = () => Math.max(...offsets.map((n, k) => timesCovered.subarray(starts[k]!, starts[k]! + n).filter((count) => count === 0).length))

  function search(size: number): boolean {
    const first = timesCovered.indexOf(0)
    if (first === -1) return true
    if (chosen.length + needed() > size) return false
    for (let index = 1; index < candidates.length; index++) {
      if (!candidatePairs[index]!.includes(first)) continue
      chosen.push(index)
      take(index, 1)
      if (search(size)) return true
      take(index, -1)
      chosen.pop()
    }
    return false
  }

  take(0, 1)
  for (let size = 1; !search(size); size++);
  return [0, ...chosen].map((index) => candidates[index]!)
}

const ALL = product()
/** The full product: `npm run test:variants -- --all`. */
export const ALL_VARIANTS: readonly Variant[] = ALL.map(variantOf)
/** What `npm test` runs: every pair of values of two dimensions, in a few variants. */
export const VARIANTS: readonly Variant[] = pairwise(ALL).map(variantOf)
export const VARIANT_IDS = VARIANTS.map((variant) => variant.id)
export const ALL_VARIANT_IDS = ALL_VARIANTS.map((variant) => variant.id)

export function variant(id: string): Variant {
  const found = ALL_VARIANTS.find((candidate) => candidate.id === id)
  if (!found) throw new Error(`unknown variant "${id}"; tested by npm test: ${VARIANT_IDS.join(', ')}`)
  return found
}

/**
 * The answers of a test variant, parsed from its flags exactly as the CLI would, with
 * install and git off: the variant run installs once for all variants and needs no repository.
 */
export function variantAnswers(id: string): Answers {
  const program = buildProgram().parse([...variant(id).args, '--no-install', '--no-git'], { from: 'user' })
  return withDefaults(answersFromFlags(program.opts()), { userAgent: undefined, gitAvailable: false })
}
