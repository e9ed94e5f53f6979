import { type Answers, NO_LAYER, OPTIONS } from '../options.js'

/**
 * The feature layers (options-table rows with a `layer`) that `answers` turn on, in table order:
 * a list's layer, then one per value chosen (`oauth`, `oauth-github`); a single choice's layer
 * for any answer but `none` (`captcha`: its files read which).
 */
export function featureLayers(answers: Answers): string[] {
  return OPTIONS.flatMap((option) => {
    const value = answers[option.key]
    if (!option.layer) return []
    if (Array.isArray(value)) return value.length ? [option.layer, ...value.map((item) => `${option.layer}-${item}`)] : []
    if (typeof value === 'string') return value === NO_LAYER ? [] : [option.layer]
    return value === true ? [option.layer] : []
  })
}

/** The template layers of a project, in the order they are applied (later ones win). */
export function layersFor(answers: Answers): string[] {
  return ['base', `db-${answers.db}`, ...featureLayers(answers)]
}
