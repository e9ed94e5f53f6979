import { describe, expect, it } from 'vitest'
import { greedyCover, uncovered } from '../src/pairwise.js'
import { ALL_VARIANT_IDS, CI_VARIANT_IDS, DIMENSIONS, RELEASE_VARIANT_IDS, VARIANT_IDS, uncoveredByVariants, variantRow } from '../src/variants.js'

const REPAIR = 'the options table or the pairwise set changed: run `npm run variants:cover` and commit what it proposes (-- --write-release)'
const SIZES = DIMENSIONS.map((dimension) => dimension.length)
/** How many variants the committed set may have beyond the greedy proposal before it counts as stale. */
const SLACK = 2

describe('the release variants (src/release-cover.ts)', () => {
  it('are variants the options table makes, each once', () => {
    expect(
      RELEASE_VARIANT_IDS.filter((id) => !variantRow(id)),
      REPAIR,
    ).toEqual([])
    expect(new Set(RELEASE_VARIANT_IDS).size).toBe(RELEASE_VARIANT_IDS.length)
  })

  it("start with the pairwise variants, in their order, the all-defaults one first, and hold CI's", () => {
    expect(RELEASE_VARIANT_IDS[0]).toBe(ALL_VARIANT_IDS[0])
    expect(RELEASE_VARIANT_IDS.slice(0, VARIANT_IDS.length), REPAIR).toEqual(VARIANT_IDS)
    expect(CI_VARIANT_IDS.filter((id) => !RELEASE_VARIANT_IDS.includes(id))).toEqual([])
  })

  it('cover every triple of values of any three dimensions', () => {
    expect(uncoveredByVariants(RELEASE_VARIANT_IDS, 3), REPAIR).toEqual([])
  })

  it(`are at most ${SLACK} more than the greedy proposal from the pairwise set`, () => {
    const proposal = greedyCover(SIZES, 3, VARIANT_IDS.map((id) => variantRow(id)!))
    expect(RELEASE_VARIANT_IDS.length, REPAIR).toBeLessThanOrEqual(proposal.length + SLACK)
  })
})

describe('the greedy 3-wise cover', () => {
  it("covers every triple of the options table from the pairwise set, keeping it first, in under 2 s", () => {
    const start = VARIANT_IDS.map((id) => variantRow(id)!)
    const started = performance.now()
    const rows = greedyCover(SIZES, 3, start)
    expect(performance.now() - started).toBeLessThan(2000)
    expect(rows.slice(0, start.length)).toEqual(start)
    expect(uncovered(SIZES, rows, 3)).toEqual([])
  })

  it('is deterministic', () => {
    expect(greedyCover(SIZES, 3)).toEqual(greedyCover(SIZES, 3))
  })

  it('covers every triple when rows are built rather than picked from the product', () => {
    const sizes = [3, ...Array<number>(16).fill(2)]
    const rows = greedyCover(sizes, 3)
    expect(rows[0]).toEqual(sizes.map(() => 0))
    expect(uncovered(sizes, rows, 3)).toEqual([])
  })

  it('names a triple a set misses by its values', () => {
    expect(uncoveredByVariants([ALL_VARIANT_IDS[0]!], 3)).toContain('mysql × no custom × no verify')
  })
})
