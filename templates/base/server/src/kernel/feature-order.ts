/** A registry whose `after` names a layer the app lacks, or goes round in a cycle: start-up stops with this one line. */
export class FeatureOrderError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FeatureOrderError'
  }
}

interface Ordered {
  name: string
  after?: readonly string[]
}

/**
 * The registry in the order its layers ask for (kernel/feature.ts `after`): each comes after the
 * ones it names, and otherwise where the registry lists it (the options table's order), so an
 * app whose layers ask for nothing keeps that order exactly.
 */
export function orderFeatures<F extends Ordered>(features: readonly F[]): F[] {
  const names = new Set(features.map((feature) => feature.name))
  for (const feature of features) {
    const unknown = (feature.after ?? []).find((name) => !names.has(name))
    if (unknown !== undefined) throw new FeatureOrderError(`Feature "${feature.name}" comes after "${unknown}", which this app does not have (features/index.ts).`)
  }
  const placed = new Set<F>()
  const done = new Set<string>()
  while (placed.size < features.length) {
    // The first not yet placed whose layers before it are: stable, and the registry's order among equals.
    const next = features.find((feature) => !placed.has(feature) && (feature.after ?? []).every((name) => done.has(name)))
    if (!next) throw new FeatureOrderError(`Features come after each other in a cycle: ${cycle(features, done).join(' → ')}.`)
    placed.add(next)
    done.add(next.name)
  }
  return [...placed]
}

/** A cycle among the layers not yet placed, as names, its first repeated at its end. */
function cycle(features: readonly Ordered[], done: ReadonlySet<string>): string[] {
  const byName = new Map(features.map((feature) => [feature.name, feature]))
  const path: string[] = []
  let name = features.find((feature) => !done.has(feature.name))!.name
  while (!path.includes(name)) {
    path.push(name)
    name = byName.get(name)!.after!.find((before) => !done.has(before))!
  }
  return [...path.slice(path.indexOf(name)), name]
}
