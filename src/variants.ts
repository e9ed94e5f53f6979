import { answersFromFlags, withDefaults } from './cli/answers.js'
import { buildProgram } from './cli/program.js'
import { type Answers, VARIANTS } from './options.js'

export const VARIANT_IDS = Object.keys(VARIANTS)

/**
 * The answers of a test variant, parsed from its flags exactly as the CLI would, with
 * install and git off: the variant run installs once for all variants and needs no repository.
 */
export function variantAnswers(id: string): Answers {
  const args = VARIANTS[id]
  if (!args) throw new Error(`unknown variant "${id}"; known: ${VARIANT_IDS.join(', ')}`)
  const program = buildProgram().parse([...args, '--no-install', '--no-git'], { from: 'user' })
  return withDefaults(answersFromFlags(program.opts()), { userAgent: undefined, gitAvailable: false })
}
