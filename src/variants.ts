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
    if (option.choices && option.prompt) dimensions.push(option.choices.map((value) => ({ tag: value, args: [option.flag, value] })))
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
 * every other in some variant. Greedy (the candidate covering most pairs not yet covered, the
 * earlier on a tie), so the set is stable and starts with the all-defaults variant.
 */
function pairwise(candidates: Pick[]): Pick[] {
  const pairsOf = (pick: Pick) => pick.flatMap((a, i) => pick.slice(i + 1).map((b, offset) => `${i}:${a}/${i + 1 + offset}:${b}`))
  const uncovered = new Set(candidates.flatMap(pairsOf))
  const chosen: Pick[] = []
  while (uncovered.size > 0) {
    let best = candidates[0]!
    let bestGain = -1
    for (const candidate of candidates) {
      const gain = pairsOf(candidate).filter((pair) => uncovered.has(pair)).length
      if (gain > bestGain) [best, bestGain] = [candidate, gain]
    }
    for (const pair of pairsOf(best)) uncovered.delete(pair)
    chosen.push(best)
  }
  return chosen
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
