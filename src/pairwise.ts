/**
 * Pairwise covers of a product of dimensions, each dimension a number of values. A row picks one
 * value index per dimension; a set of rows covers a pair when some row holds both of its values.
 */
export type Row = number[]

/** Beyond this many rows in the product, rows are built value by value instead of picked from it. */
const ENUMERATE_UP_TO = 1 << 14

/** Each pair of values of two dimensions as one integer, for flat counting arrays. */
function pairIndex(sizes: readonly number[]) {
  const pairs: [number, number][] = []
  for (let i = 0; i < sizes.length; i++) for (let j = i + 1; j < sizes.length; j++) pairs.push([i, j])
  const starts: number[] = []
  let total = 0
  for (const [i, j] of pairs) {
    starts.push(total)
    total += sizes[i]! * sizes[j]!
  }
  const at = (k: number, row: Row) => starts[k]! + row[pairs[k]![0]]! * sizes[pairs[k]![1]]! + row[pairs[k]![1]]!
  return { pairs, starts, total, pairsOf: (row: Row) => pairs.map((_, k) => at(k, row)) }
}

/** Every row of the product, the first dimension changing slowest (so all-zeros comes first). */
export function product(sizes: readonly number[]): Row[] {
  return sizes.reduce<Row[]>((rows, size) => rows.flatMap((row) => Array.from({ length: size }, (_, value) => [...row, value])), [[]])
}

/** The pairs of values of two dimensions that `rows` leave uncovered, as `[i, a, j, b]`. */
export function uncoveredPairs(sizes: readonly number[], rows: readonly Row[]): [number, number, number, number][] {
  const seen = new Set(rows.flatMap((row) => row.flatMap((a, i) => row.slice(i + 1).map((b, offset) => `${i}:${a}|${i + 1 + offset}:${b}`))))
  const missing: [number, number, number, number][] = []
  for (let i = 0; i < sizes.length; i++) {
    for (let j = i + 1; j < sizes.length; j++) {
      for (let a = 0; a < sizes[i]!; a++) for (let b = 0; b < sizes[j]!; b++) if (!seen.has(`${i}:${a}|${j}:${b}`)) missing.push([i, a, j, b])
    }
  }
  return missing
}

/**
 * A pairwise cover, greedily (AETG-style, deterministic): `start` (the all-defaults row unless
 * given), then again and again the row covering the most pairs still uncovered. While the product
 * is small every row of it is a candidate, ties going to the first in product order, which keeps
 * the answer stable for the same table; past ENUMERATE_UP_TO the product is never listed and a
 * row is built instead from the first uncovered pair, each other dimension then taking the value
 * that covers the most new pairs with those already fixed. Either way a new row covers at least
 * one new pair, so the loop ends; the result is near the smallest, not proven smallest.
 */
export function greedyPairwise(sizes: readonly number[], start: readonly Row[] = [sizes.map(() => 0)]): Row[] {
  const { pairs, starts, total, pairsOf } = pairIndex(sizes)
  const covered = new Uint8Array(total)
  let left = total
  const rows: Row[] = []
  const take = (row: Row) => {
    rows.push(row)
    for (const pair of pairsOf(row)) if (!covered[pair]) (covered[pair] = 1), left--
  }
  for (const row of start) take([...row])

  const size = sizes.reduce((n, values) => n * values, 1)
  if (size <= ENUMERATE_UP_TO) {
    // Every candidate's pairs in one flat array: rounds then only count, with nothing allocated.
    const rowAt = (index: number): Row => {
      const row = new Array<number>(sizes.length)
      for (let d = sizes.length - 1; d >= 0; d--) (row[d] = index % sizes[d]!), (index = Math.floor(index / sizes[d]!))
      return row
    }
    const width = pairs.length
    const candidatePairs = new Int32Array(size * width)
    for (let c = 0; c < size; c++) candidatePairs.set(pairsOf(rowAt(c)), c * width)
    while (left > 0) {
      let best = -1
      let bestGain = 0
      for (let c = 0, at = 0; c < size; c++) {
        let gain = 0
        for (const end = at + width; at < end; at++) if (!covered[candidatePairs[at]!]) gain++
        if (gain > bestGain) (best = c), (bestGain = gain)
      }
      take(rowAt(best))
    }
    return rows
  }

  // Where the pairs of dimensions i < j start, to test one pair of a row still being built.
  const startOf = sizes.map(() => new Array<number>(sizes.length).fill(0))
  pairs.forEach(([i, j], k) => (startOf[i]![j] = starts[k]!))
  const isCovered = (i: number, a: number, j: number, b: number) =>
    i < j ? covered[startOf[i]![j]! + a * sizes[j]! + b] === 1 : covered[startOf[j]![i]! + b * sizes[i]! + a] === 1
  // Uncovered pairs per value of each dimension: a value that still needs many goes in first.
  const needs = sizes.map((n) => new Array<number>(n).fill(0))
  pairs.forEach(([i, j], k) => {
    for (let a = 0; a < sizes[i]!; a++) for (let b = 0; b < sizes[j]!; b++) if (!covered[starts[k]! + a * sizes[j]! + b]) needs[i]![a]!++, needs[j]![b]!++
  })
  while (left > 0) {
    const first = covered.indexOf(0)
    const k = starts.findLastIndex((at) => at <= first)
    const [i, j] = pairs[k]!
    const row: Row = sizes.map(() => -1)
    row[i] = Math.floor((first - starts[k]!) / sizes[j]!)
    row[j] = (first - starts[k]!) % sizes[j]!
    for (let d = 0; d < sizes.length; d++) {
      if (row[d] !== -1) continue
      let bestValue = 0
      let bestGain = -1
      for (let value = 0; value < sizes[d]!; value++) {
        let gain = 0
        for (let e = 0; e < sizes.length; e++) if (row[e] !== -1 && !isCovered(d, value, e, row[e]!)) gain++
        // Pairs with fixed dimensions first, then how many this value still needs overall.
        const score = gain * total + needs[d]![value]!
        if (score > bestGain) (bestValue = value), (bestGain = score)
      }
      row[d] = bestValue
    }
    for (let d = 0; d < sizes.length; d++) {
      for (let e = d + 1; e < sizes.length; e++) if (!isCovered(d, row[d]!, e, row[e]!)) needs[d]![row[d]!]!--, needs[e]![row[e]!]!--
    }
    take(row)
  }
  return rows
}
