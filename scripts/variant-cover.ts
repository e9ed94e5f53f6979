/**
 * Proposes the variants when the options table changes: CI's set (`npm test` runs its apps), the
 * fewest variants of the release set holding every value of every dimension; a greedy pairwise cover
 * of the table's dimensions (src/pairwise.ts), beside the committed set (src/variant-cover.ts);
 * and those `npm run test:release` runs: a greedy 3-wise cover grown from the pairwise set,
 * beside the committed one (src/release-cover.ts), with its size and a rough run time.
 *
 *   npm run variants:cover                       print them, and what the committed sets miss
 *   npm run variants:cover -- --write            commit the greedy cover
 *   npm run variants:cover -- --write --extend   keep the committed variants, add greedy ones
 *   npm run variants:cover -- --write-release    commit the 3-wise cover grown from the pairwise
 *                                                set (the one --write writes, when both are given)
 *   npm run variants:cover -- --write-ci         commit CI's set: the fewest variants of the
 *                                                committed release set that hold every value
 *
 * --extend keeps the variants' names, and so CI's history and snapshot folders, at the price of a
 * variant or two more than a fresh cover; which is worth more is the maintainer's call.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { greedyCover, greedyPairwise } from '../src/pairwise.js'
import { CI_VARIANT_IDS, DIMENSIONS, RELEASE_VARIANT_IDS, VARIANT_IDS, uncoveredByVariants, variantOf, variantRow } from '../src/variants.js'

const { values } = parseArgs({ options: { write: { type: 'boolean' }, extend: { type: 'boolean' }, 'write-release': { type: 'boolean' }, 'write-ci': { type: 'boolean' } } })
const FILE = new URL('../src/variant-cover.ts', import.meta.url)
const RELEASE_FILE = new URL('../src/release-cover.ts', import.meta.url)
const sizes = DIMENSIONS.map((dimension) => dimension.length)
const ids = (rows: number[][]) => rows.map((row) => variantOf(row).id)

const unknown = VARIANT_IDS.filter((id) => !variantRow(id))
const missing = uncoveredByVariants(VARIANT_IDS)
console.log(`dimensions: ${sizes.length} (${sizes.join(' × ')} = ${sizes.reduce((n, size) => n * size, 1)} variants in all)`)
console.log(`committed (src/variant-cover.ts): ${VARIANT_IDS.length} variants: ${VARIANT_IDS.join(', ')}`)
if (unknown.length) console.log(`  not made by the options table: ${unknown.join(', ')}`)
console.log(missing.length ? `  misses ${missing.length} pairs: ${missing.join(', ')}` : '  covers every pair')

const started = performance.now()
const fresh = ids(greedyPairwise(sizes))
console.log(`greedy: ${fresh.length} variants in ${(performance.now() - started).toFixed(0)} ms: ${fresh.join(', ')}`)
const kept = VARIANT_IDS.filter((id) => variantRow(id))
const extended = ids(greedyPairwise(sizes, kept.map((id) => variantRow(id)!)))
if (missing.length || unknown.length) console.log(`committed + greedy: ${extended.length} variants: ${extended.join(', ')}`)

const chosen = values.extend ? extended : fresh
if (values.write) {
  if (chosen[0] !== ids([sizes.map(() => 0)])[0]) throw new Error('the committed set must start with the all-defaults variant')
  writeFileSync(
    FILE,
    [
      '// Written by `npm run variants:cover -- --write` (scripts/variant-cover.ts); checked by',
      '// test/variant-cover.test.ts. The variants `npm test` runs, all-defaults first.',
      'export const VARIANT_COVER: readonly string[] = [',
      ...chosen.map((id) => `  '${id}',`),
      ']',
      '',
    ].join('\n'),
  )
  console.log(`wrote ${chosen.length} variants to src/variant-cover.ts; refresh the snapshots (npm run snapshots:update) and docs/tests.md's list (npm run readme:options)`)
  if (!values['write-release']) console.log("the release set starts with CI's: -- --write-release rewrites it")
}

/**
 * A rough guess of a variant run's seconds on the 2-core machine, from CI runs there: about 210 s
 * for a variant with its own first server run (the first on its database: server tests are
 * proved per database), about 120 s for one whose tests an earlier variant mostly proved. Not
 * measured on a release run: whether test:release fits its 60 minutes is this guess, no more.
 */
function estimatedSeconds(set: readonly string[]): number {
  // The first dimension is the options table's one choice question, the database.
  const databases = new Set<number>()
  let seconds = 0
  for (const id of set) {
    const row = variantRow(id)
    if (!row) continue
    seconds += databases.has(row[0]!) ? 120 : 210
    databases.add(row[0]!)
  }
  return seconds
}
const minutes = (set: readonly string[]) => `≈ ${Math.round(estimatedSeconds(set) / 60)} min`

// The release set: CI's set first (so the release gate runs all CI runs), then what 3-wise adds.
const pairwiseSet = values.write ? chosen : kept
const releaseUnknown = RELEASE_VARIANT_IDS.filter((id) => !variantRow(id))
const releaseMissing = uncoveredByVariants(RELEASE_VARIANT_IDS, 3)
const lacksCi = pairwiseSet.filter((id) => !RELEASE_VARIANT_IDS.includes(id))
console.log(`\ncommitted release set (src/release-cover.ts): ${RELEASE_VARIANT_IDS.length} variants, ${minutes(RELEASE_VARIANT_IDS)} of test:variants: ${RELEASE_VARIANT_IDS.join(', ')}`)
if (releaseUnknown.length) console.log(`  not made by the options table: ${releaseUnknown.join(', ')}`)
if (lacksCi.length) console.log(`  lacks the pairwise variants: ${lacksCi.join(', ')}`)
console.log(releaseMissing.length ? `  misses ${releaseMissing.length} triples, the first: ${releaseMissing.slice(0, 5).join(', ')}` : '  covers every triple')
const releaseStarted = performance.now()
const release = ids(greedyCover(sizes, 3, pairwiseSet.map((id) => variantRow(id)!)))
const releaseMs = performance.now() - releaseStarted
console.log(`greedy 3-wise from the pairwise set: ${release.length} variants in ${releaseMs.toFixed(0)} ms, ${minutes(release)} of test:variants: ${release.join(', ')}`)
console.log(
  `  (rough: ${minutes(pairwiseSet)} for the pairwise set's ${pairwiseSet.length}; 210 s for the first variant on each database, 120 s for one whose tests are mostly proved, from CI runs on the 2-core machine; test:release's build, unit tests, test:install -- --all and test:update come on top; never measured)`,
)

if (values['write-release']) {
  if (release[0] !== ids([sizes.map(() => 0)])[0]) throw new Error('the release set must start with the all-defaults variant')
  writeFileSync(
    RELEASE_FILE,
    [
      '// Written by `npm run variants:cover -- --write-release` (scripts/variant-cover.ts); checked by',
      '// test/release-cover.test.ts. The variants `npm run test:release` runs: every triple of values',
      "// of any three dimensions meets in one; the pairwise set (src/variant-cover.ts) first, in its order.",
      'export const RELEASE_COVER: readonly string[] = [',
      ...release.map((id) => `  '${id}',`),
      ']',
      '',
    ].join('\n'),
  )
  console.log(`wrote ${release.length} variants to src/release-cover.ts`)
}

/**
 * CI's set: the all-defaults variant and the fewest others of the committed release set that
 * hold every value with it, tried by size (two more, then three, …; the release set is a few
 * dozen, so this is a few thousand checks); the first found, in the release set's order.
 */
function ciSet(pool: readonly string[]): string[] {
  const [first, ...rest] = pool
  const fits = (set: string[]) => uncoveredByVariants(set, 1).length === 0
  const search = (chosen: string[], from: number, left: number): string[] | undefined => {
    if (left === 0) return fits(chosen) ? chosen : undefined
    for (let index = from; index < rest.length; index++) {
      const found = search([...chosen, rest[index]!], index + 1, left - 1)
      if (found) return found
    }
    return undefined
  }
  for (let more = 0; more <= rest.length; more++) {
    const found = search([first!], 0, more)
    if (found) return found
  }
  throw new Error('the release set does not hold every value')
}
const ci = ciSet(RELEASE_VARIANT_IDS)
const ciMissing = uncoveredByVariants(CI_VARIANT_IDS, 1)
console.log(`\ncommitted CI set (src/ci-cover.ts): ${CI_VARIANT_IDS.length} variants: ${CI_VARIANT_IDS.join(', ')}`)
console.log(ciMissing.length ? `  misses ${ciMissing.length} values: ${ciMissing.join(', ')}` : '  holds every value')
console.log(`fewest of the release set holding every value: ${ci.length}: ${ci.join(', ')}`)
if (values['write-ci']) {
  const file = new URL('../src/ci-cover.ts', import.meta.url)
  const header = readFileSync(file, 'utf8').split('\n').filter((line) => line.startsWith('//'))
  writeFileSync(file, [...header, 'export const CI_COVER: readonly string[] = [', ...ci.map((id) => `  '${id}',`), ']', ''].join('\n'))
  console.log(`wrote ${ci.length} variants to src/ci-cover.ts`)
}
