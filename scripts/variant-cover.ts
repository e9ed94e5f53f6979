/**
 * Proposes the variants `npm test` runs when the options table changes: a greedy pairwise cover
 * of the table's dimensions (src/pairwise.ts), beside the committed set (src/variant-cover.ts).
 *
 *   npm run variants:cover                       print both, and what the committed set misses
 *   npm run variants:cover -- --write            commit the greedy cover
 *   npm run variants:cover -- --write --extend   keep the committed variants, add greedy ones
 *
 * --extend keeps the variants' names, and so CI's history and snapshot folders, at the price of a
 * variant or two more than a fresh cover; which is worth more is the maintainer's call.
 */
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { greedyPairwise } from '../src/pairwise.js'
import { DIMENSIONS, VARIANT_IDS, uncoveredByVariants, variantOf, variantRow } from '../src/variants.js'

const { values } = parseArgs({ options: { write: { type: 'boolean' }, extend: { type: 'boolean' } } })
const FILE = new URL('../src/variant-cover.ts', import.meta.url)
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

if (values.write) {
  const chosen = values.extend ? extended : fresh
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
}
