import { type Answers, FEATURES, type Feature } from '../options.js'
import { Refusal } from './refusal.js'

/** The features named on `add`'s command line; a Refusal naming the first unknown one. */
export function parseFeatures(names: readonly string[]): Feature[] {
  return names.map((name) => {
    const feature = FEATURES.find((known) => known.name === name)
    if (!feature) throw new Refusal(`feature "${name}" is invalid: use ${FEATURES.map((known) => known.name).join(', ')}`)
    return feature
  })
}

/**
 * `answers` with `features` on: a yes for a yes/no row, one more value (in table order) for a
 * list, the value for a single choice (a Refusal when two of its values are named).
 */
export function withFeatures(answers: Answers, features: readonly Feature[]): Answers {
  const result: Record<string, unknown> = { ...answers }
  for (const feature of features) {
    if (feature.value === undefined) {
      result[feature.key] = true
    } else if (!Array.isArray(result[feature.key])) {
      const other = features.find((known) => known.key === feature.key && known.value !== feature.value)
      if (other) throw new Refusal(`features "${feature.name}" and "${other.name}" are one answer: add one of them`)
      result[feature.key] = feature.value
    } else {
      const choices = FEATURES.filter((known) => known.key === feature.key).map((known) => known.value!)
      const chosen = [...(result[feature.key] as string[]), feature.value]
      result[feature.key] = choices.filter((value) => chosen.includes(value))
    }
  }
  return result as unknown as Answers
}
