import { fileURLToPath } from 'node:url'
import { type Answers, OPTIONS } from '../options.js'

export const TEMPLATES_DIR = fileURLToPath(new URL('../../templates/', import.meta.url))

/** The feature layers (options-table rows with a `layer`) that `answers` turn on, in table order. */
export function featureLayers(answers: Answers): string[] {
  return OPTIONS.flatMap((option) => (option.layer && answers[option.key] === true ? [option.layer] : []))
}

/** The template layers of a project, in the order they are applied (later ones win). */
export function layersFor(answers: Answers): string[] {
  return ['base', `db-${answers.db}`, ...featureLayers(answers)]
}
