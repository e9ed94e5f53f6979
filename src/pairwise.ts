/**
 * Covers of strength t of a product of dimensions, each dimension a number of values: pairwise
 * (t = 2, what CI runs) and 3-wise (the release gate). A row picks one value index per dimension;
 * a set of rows covers a t-tuple (t values of t different dimensions) when some row holds all of them.
 */
export type Row = number[]

/** Beyond this many rows in the product, rows are built value by value instead of picked from it. */
const ENUMERATE_UP_TO = 1 << 14
/** Nor listed when every row's tuples would take more than this many cells (4 bytes each). */
const ENUMERATE_CELLS = 1 << 23

/** Every t-subset of `n` dimensions, in lexicographic order. */
function subsets(n: number, t: number): number[][] {
  const all: number[][] = []
  const pick = (from: number, chosen: number[]) => {
    if (chosen.length === t) return void all.push(chosen)
    for (let d = from; d <= n - (t - chosen.length); d++) pick(d + 1, [...chosen, d])
  }
  pick(0, [])
  return all
}

/**
 * Each t-tuple of values as one integer, for flat counting arrays: dimension sets in
 * lexicographic order, and within one the values mixed-radix, the last dimension fastest (for
 * t = 2, pair (i, a, j, b) at start(i, j) + a × size(j) + b).
 */
function tupleIndex(sizes: readonly number[], t: number) {
  const sets = subsets(sizes.length, t)
  const starts: number[] = []
  let total = 0
  for (const set of sets) {
    starts.push(total)
    total += set.reduce((n, d) => n * sizes[d]!, 1)
  }
  const at = (k: number, row: readonly number[]) => {
    let index = 0
    for (const d of sets[k]!) index = index * sizes[d]! + row[d]!
    return starts[k]! + index
  }
  const tuplesOf = (row: readonly number[]) => sets.map((_, k) => at(k, row))
  /** The dimension set and values of a tuple's integer. */
  const decode = (index: number): { k: number; values: number[] } => {
    const k = starts.findLastIndex((start) => start <= index)
    let offset = index - starts[k]!
    const set = sets[k]!
    const values = new Array<number>(set.length)
    for (let e = set.length - 1; e >= 0; e--) (values[e] = offset % sizes[set[e]!]!), (offset = Math.floor(offset / sizes[set[e]!]!))
    return { k, values }
  }
  return { sets, starts, total, at, tuplesOf, decode }
}

/** Every row of the product, the first dimension changing slowest (so all-zeros comes first). */
export function product(sizes: readonly number[]): Row[] {
  return sizes.reduce<Row[]>((rows, size) => rows.flatMap((row) => Array.from({ length: size }, (_, value) => [...row, value])), [[]])
}

/**
 * The t-tuples of values that `rows` leave uncovered, each as `[i, a, j, b, …]` (dimension, value,
 * dimension, value; dimensions ascending), in index order.
 */
export function uncovered(sizes: readonly number[], rows: readonly Row[], t: number): number[][] {
  if (t < 1 || t > sizes.length) throw new Error(`strength ${t} of ${sizes.length} dimensions`)
  const { sets, total, tuplesOf, decode } = tupleIndex(sizes, t)
  const covered = new Uint8Array(total)
  for (const row of rows) for (const tuple of tuplesOf(row)) covered[tuple] = 1
  const missing: number[][] = []
  for (let index = covered.indexOf(0); index !== -1; index = covered.indexOf(0, index + 1)) {
    const { k, values } = decode(index)
    missing.push(sets[k]!.flatMap((d, e) => [d, values[e]!]))
  }
  return missing
}

/** The pairs of values of two dimensions that `rows` leave uncovered, as `[i, a, j, b]`. */
export function uncoveredPairs(sizes: readonly number[], rows: readonly Row[]): [number, number, number, number][] {
  return uncovered(sizes, rows, 2) as [number, number, number, number][]
}

/** A pairwise cover: `greedyCover` of strength 2. */
export function greedyPairwise(sizes: readonly number[], start: readonly Row[] = [sizes.map(() => 0)]): Row[] {
  return greedyCover(sizes, 2, start)
}

/**
 * A cover of strength t, greedily (AETG-style, deterministic): `start` (the all-defaults row
 * unless given), then again and again the row covering the most t-tuples still uncovered. While
 * the product is small every row of it is a candidate, ties going to the first in product order,
 * which keeps the answer stable for the same table; past ENUMERATE_UP_TO the product is never
 * listed and a row is built instead from the first uncovered tuple, each other dimension then
 * taking the value that completes the most new tuples with those already fixed. Either way a new
 * row covers at least one new tuple, so the loop ends; the result is near the smallest, not
 * proven smallest. For t = 2 this is, row for row, the pairwise greedy CI's set came from.
 */
export function greedyCover(sizes: readonly number[], t: number, start: readonly Row[] = [sizes.map(() => 0)]): Row[] {
  if (t < 1 || t > sizes.length) throw new Error(`strength ${t} of ${sizes.length} dimensions`)
  const { sets, total, at, tuplesOf, decode } = tupleIndex(sizes, t)
  const covered = new Uint8Array(total)
  let left = total
  const rows: Row[] = []
  const take = (row: Row) => {
    rows.push(row)
    for (const tuple of tuplesOf(row)) if (!covered[tuple]) (covered[tuple] = 1), left--
  }
  for (const row of start) take([...row])

  const size = sizes.reduce((n, values) => n * values, 1)
  const width = sets.length
  if (size <= ENUMERATE_UP_TO && size * width <= ENUMERATE_CELLS) {
    // Every candidate's tuples in one flat array: rounds then only count, with nothing allocated.
    const rowAt = (index: number): Row => {
      const row = new Array<number>(sizes.length)
      for (let d = sizes.length - 1; d >= 0; d--) (row[d] = index % sizes[d]!), (index = Math.floor(index / sizes[d]!))
      return row
    }
    const candidateTuples = new Int32Array(size * width)
    for (let c = 0; c < size; c++) candidateTuples.set(tuplesOf(rowAt(c)), c * width)
    while (left > 0) {
      let best = -1
      let bestGain = 0
      for (let c = 0, at = 0; c < size; c++) {
        let gain = 0
        for (const end = at + width; at < end; at++) if (!covered[candidateTuples[at]!]) gain++
        if (gain > bestGain) (best = c), (bestGain = gain)
      }
      take(rowAt(best))
    }
    return rows
  }

  // The dimension sets holding each dimension: a value is scored on those whose others are fixed.
  const setsOf = sizes.map((_, d) => sets.flatMap((set, k) => (set.includes(d) ? [k] : [])))
  // Uncovered tuples per value of each dimension: a value that still needs many goes in first.
  const needs = sizes.map((n) => new Array<number>(n).fill(0))
  for (let index = covered.indexOf(0); index !== -1; index = covered.indexOf(0, index + 1)) {
    const { k, values } = decode(index)
    sets[k]!.forEach((d, e) => needs[d]![values[e]!]!++)
  }
  while (left > 0) {
    const { k, values } = decode(covered.indexOf(0))
    const row: Row = sizes.map(() => -1)
    sets[k]!.forEach((d, e) => (row[d] = values[e]!))
    for (let d = 0; d < sizes.length; d++) {
      if (row[d] !== -1) continue
      const complete = setsOf[d]!.filter((k) => sets[k]!.every((e) => e === d || row[e] !== -1))
      let bestValue = 0
      let bestScore = -1
      for (let value = 0; value < sizes[d]!; value++) {
        row[d] = value
        let gain = 0
        for (const k of complete) if (!covered[at(k, row)]) gain++
        // Tuples with fixed dimensions first, then how many this value still needs overall.
        const score = gain * total + needs[d]![value]!
        if (score > bestScore) (bestValue = value), (bestScore = score)
      }
      row[d] = bestValue
    }
    sets.forEach((set, k) => {
      if (!covered[at(k, row)]) for (const d of set) needs[d]![row[d]!]!--
    })
    take(row)
  }
  return rows
}
