import { fileURLToPath } from 'node:url'
import type { Answers } from '../options.js'

export const TEMPLATES_DIR = fileURLToPath(new URL('../../templates/', import.meta.url))

/** The template layers of a project, in the order they are applied (later ones win). */
export function layersFor(answers: Pick<Answers, 'db' | 'twoFactor'>): string[] {
  return ['base', `db-${answers.db}`, ...(answers.twoFactor ? ['two-factor'] : [])]
}
