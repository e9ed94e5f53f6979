/** The middle item by `value` (the upper one of an even count), as the benchmarks report rounds. */
export function medianBy<T>(items: T[], value: (item: T) => number): T {
  return [...items].sort((a, b) => value(a) - value(b))[Math.floor(items.length / 2)]!
}
