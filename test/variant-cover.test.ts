import { describe, expect, it } from 'vitest'
import { greedyPairwise, uncoveredPairs } from '../src/pairwise.js'
import { ALL_VARIANT_IDS, CI_VARIANT_IDS, DIMENSIONS, RELEASE_VARIANT_IDS, VARIANT_IDS, uncoveredByVariants, variantRow } from '../src/variants.js'

const REPAIR = 'the options table changed: run `npm run variants:cover` and commit what it proposes (-- --write, or -- --write --extend to keep these variants)'
const SIZES = DIMENSIONS.map((dimension) => dimension.length)

describe('the committed variants (src/variant-cover.ts)', () => {
  it('are variants the options table makes, each once', () => {
    expect(
      VARIANT_IDS.filter((id) => !variantRow(id)),
      REPAIR,
    ).toEqual([])
    expect(new Set(VARIANT_IDS).size).toBe(VARIANT_IDS.length)
  })

  it('start with the all-defaults variant', () => {
    expect(VARIANT_IDS[0]).toBe(ALL_VARIANT_IDS[0])
    expect(variantRow(VARIANT_IDS[0]!)).toEqual(SIZES.map(() => 0))
  })

  it('cover every pair of values of every two dimensions', () => {
    expect(uncoveredByVariants(VARIANT_IDS), REPAIR).toEqual([])
  })
})

describe("CI's variants (src/ci-cover.ts)", () => {
  const repair = 'the options table changed: run `npm run variants:cover -- --write-ci` and commit what it proposes'

  it('start with the all-defaults variant, each once, all from the release set', () => {
    expect(CI_VARIANT_IDS[0]).toBe(ALL_VARIANT_IDS[0])
    expect(new Set(CI_VARIANT_IDS).size).toBe(CI_VARIANT_IDS.length)
    expect(CI_VARIANT_IDS.filter((id) => !RELEASE_VARIANT_IDS.includes(id)), repair).toEqual([])
  })

  it('hold every value of every dimension', () => {
    expect(uncoveredByVariants(CI_VARIANT_IDS, 1), repair).toEqual([])
  })

  it('are no more than the values of the widest dimension, plus one', () => {
    expect(CI_VARIANT_IDS.length, repair).toBeLessThanOrEqual(Math.max(...SIZES) + 1)
  })
})

describe('the greedy cover', () => {
  it('covers every pair of the options table, from the all-defaults variant', () => {
    const rows = greedyPairwise(SIZES)
    expect(rows[0]).toEqual(SIZES.map(() => 0))
    expect(uncoveredPairs(SIZES, rows)).toEqual([])
  })

  it.each([2, 3])('covers every pair with %i more boolean options, in under a second', (extra) => {
    const sizes = [...SIZES, ...Array<number>(extra).fill(2)]
    const started = performance.now()
    const rows = greedyPairwise(sizes)
    const elapsed = performance.now() - started
    expect(uncoveredPairs(sizes, rows)).toEqual([])
    expect(rows.length).toBeLessThanOrEqual(12)
    expect(elapsed).toBeLessThan(1000)
  })

  it('builds rows without listing the product when that is too large to list', () => {
    const sizes = [3, ...Array<number>(30).fill(2)]
    const started = performance.now()
    const rows = greedyPairwise(sizes)
    expect(uncoveredPairs(sizes, rows)).toEqual([])
    expect(rows.length).toBeLessThanOrEqual(20)
    expect(performance.now() - started).toBeLessThan(1000)
  })

  it('keeps the rows it starts from, and adds only what they miss', () => {
    const cover = greedyPairwise(SIZES)
    expect(greedyPairwise(SIZES, cover)).toEqual(cover)
    const sizes = [...SIZES, 2]
    const start = cover.map((row) => [...row, 0])
    const extended = greedyPairwise(sizes, start)
    expect(extended.slice(0, start.length)).toEqual(start)
    expect(uncoveredPairs(sizes, extended)).toEqual([])
  })
})
