import { formatDuration } from '../duration.js'
import { GENERATOR } from '../generate/record.js'
import { FEATURES, OPTIONS, type OptionRow, isBoolean } from '../options.js'
import { RUN_FLAGS, statedDefault } from './program.js'

function kind(option: OptionRow): 'boolean' | 'choice' | 'list' | 'duration' | 'text' {
  if (isBoolean(option)) return 'boolean'
  if (option.multiple) return 'list'
  if (option.choices) return 'choice'
  return option.format === (formatDuration as unknown) ? 'duration' : 'text'
}

const HELP_ENV = { userAgent: undefined, gitAvailable: true }

/** `options --json`: the options table, from OPTIONS and RUN_FLAGS (schema/options.schema.json). */
export function optionsDocument() {
  return {
    version: GENERATOR.version,
    options: OPTIONS.map((option) => ({
      key: option.key,
      flag: option.flag,
      negation: isBoolean(option) ? `--no-${option.flag.slice(2)}` : null,
      type: kind(option),
      values: option.choices ? [...option.choices] : null,
      default: option.default(HELP_ENV),
      defaultText: statedDefault(option),
      prompt: option.prompt ?? null,
      description: option.description,
      negatedDescription: option.negated ?? null,
      generates: option.readme,
      layer: option.layer ?? null,
      features: FEATURES.filter((feature) => feature.key === option.key).map((feature) => feature.name),
      needs: option.needs ? [...option.needs] : [],
      recorded: !option.setup,
      fixed: option.fixed ?? null,
    })),
    flags: RUN_FLAGS.map((flag) => ({ flags: flag.flags, description: flag.description, default: flag.default })),
  }
}

/** `options` without --json: one line a flag, for a person. */
export function optionsText(): string {
  const rows = OPTIONS.map((option) => [
    isBoolean(option) ? `${option.flag} / --no-${option.flag.slice(2)}` : `${option.flag} ${option.valueName ?? ''}`,
    statedDefault(option),
    option.description,
  ])
  const width = Math.max(...rows.map(([flag]) => flag!.length))
  return rows.map(([flag, fallback, description]) => `${flag!.padEnd(width)}  ${description} (default: ${fallback})`).join('\n')
}
