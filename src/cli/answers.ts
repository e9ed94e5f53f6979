import { formatDuration } from '../duration.js'
import { type Answers, type Environment, InvalidValue, OPTIONS, type OptionRow, RULES, attributeName, isBoolean } from '../options.js'

/** A bad value: printed as one line naming the flag, the value and what is allowed. */
export class UsageError extends Error {
  /** The flag to blame, when one is (`--json` states it as `error.flag`). */
  constructor(
    message: string,
    readonly flag?: string,
  ) {
    super(message)
  }
}

export function invalid(option: OptionRow, text: string, allowed: string): UsageError {
  return new UsageError(`${option.flag} "${text}" is invalid: ${allowed}`, option.flag)
}

function displayValue(value: Answers[keyof Answers]): string {
  if (Array.isArray(value)) return value.join(',')
  return typeof value === 'number' ? formatDuration(value) : String(value)
}

/** The values given as flags, parsed; throws UsageError on the first bad one. */
export function answersFromFlags(flags: Record<string, unknown>): Partial<Answers> {
  const given: Partial<Record<keyof Answers, unknown>> = {}
  for (const option of OPTIONS) {
    const raw = flags[attributeName(option)]
    if (raw === undefined) continue
    if (isBoolean(option)) {
      given[option.key] = raw as boolean
      continue
    }
    try {
      given[option.key] = option.parse!(String(raw))
    } catch (error) {
      if (error instanceof InvalidValue) throw invalid(option, String(raw), error.allowed)
      throw error
    }
  }
  return given as Partial<Answers>
}

/**
 * The first broken rule among `answers`, then the first row on without one it needs (blamed on
 * that row). A rule is blamed on the side in `chosen` (the flags the user typed, or the prompt
 * being answered) when only one side is there, else on the second side.
 */
export function brokenRule(answers: Partial<Answers>, chosen: ReadonlySet<keyof Answers>): UsageError | null {
  for (const rule of RULES) {
    const first = answers[rule.first]
    const second = answers[rule.second]
    if (first === undefined || second === undefined || rule.holds(first, second)) continue
    const blameFirst = chosen.has(rule.first) && !chosen.has(rule.second)
    const key = blameFirst ? rule.first : rule.second
    const option = OPTIONS.find((row) => row.key === key)!
    const value = answers[key]!
    return invalid(option, displayValue(value), blameFirst ? rule.firstMust(second) : rule.secondMust(first))
  }
  return missingNeed(answers)
}

/** Whether an answer turns its row on: yes, or a non-empty list. */
export function isOn(value: Answers[keyof Answers] | undefined): boolean {
  return value === true || (Array.isArray(value) && value.length > 0)
}

/** The first row answered on while a row it `needs` is answered off (one not answered yet is no conflict). */
function missingNeed(answers: Partial<Answers>): UsageError | null {
  for (const option of OPTIONS) {
    if (!isOn(answers[option.key])) continue
    const off = option.needs?.find((key) => answers[key] !== undefined && !isOn(answers[key]))
    if (!off) continue
    const needed = OPTIONS.find((row) => row.key === off)!
    return new UsageError(`${option.flag} needs ${needed.flag}: add ${needed.flag}, or leave ${option.flag} out`, option.flag)
  }
  return null
}

export function withDefaults(given: Partial<Answers>, env: Environment): Answers {
  const answers: Partial<Record<keyof Answers, unknown>> = { ...given }
  for (const option of OPTIONS) answers[option.key] ??= option.default(env)
  return answers as Answers
}
