import prompts, { type PromptObject } from 'prompts'
import { type Answers, type Environment, InvalidValue, OPTIONS, type OptionRow, isBoolean } from '../options.js'
import { formatDuration } from '../duration.js'
import { brokenRule, isOn } from './answers.js'

/** Thrown when the user presses Ctrl-C (or Esc) at a prompt. */
export class Cancelled extends Error {}

const onCancel = () => {
  throw new Cancelled()
}

export async function askDirectory(fallback: string): Promise<string> {
  const { directory } = await prompts(
    {
      type: 'text',
      name: 'directory',
      message: 'Project name',
      initial: fallback,
      validate: (text: string) => (text.trim() ? true : 'Enter a folder name'),
    },
    { onCancel },
  )
  return String(directory).trim()
}

export async function confirmReplace(directory: string): Promise<boolean> {
  const { replace } = await prompts(
    {
      type: 'confirm',
      name: 'replace',
      message: `"${directory}" is not empty. Replace its contents (.git is kept)?`,
      initial: false,
    },
    { onCancel },
  )
  return replace === true
}

function question(option: OptionRow, known: Partial<Answers>, env: Environment): PromptObject {
  const initial = option.default(env)
  const base = { name: option.key, message: option.prompt! }
  if (isBoolean(option)) return { ...base, type: 'confirm', initial: initial as boolean }
  if (option.choices && option.multiple) {
    return {
      ...base,
      type: 'multiselect',
      choices: option.choices.map((value) => ({ title: value, value, selected: (initial as string[]).includes(value) })),
      instructions: false,
      hint: 'space to choose, enter when done',
    }
  }
  if (option.choices) {
    return {
      ...base,
      type: 'select',
      choices: option.choices.map((value) => ({ title: value, value })),
      initial: option.choices.indexOf(initial as string),
    }
  }
  const parse = option.parse!
  return {
    ...base,
    type: 'text',
    initial: typeof initial === 'number' ? formatDuration(initial) : String(initial),
    validate: (text: string) => {
      try {
        const value = parse(text.trim())
        const error = brokenRule({ ...known, [option.key]: value }, new Set([option.key]))
        return error ? error.message.replace(/^--\S+ "[^"]*" is invalid: /, '') : true
      } catch (error) {
        if (error instanceof InvalidValue) return error.allowed
        throw error
      }
    },
    format: (text: string) => parse(text.trim()),
  }
}

/** Asks, in table order, every promptable answer that no flag gave. */
export async function askMissing(given: Partial<Answers>, env: Environment): Promise<Partial<Answers>> {
  const known: Partial<Answers> = { ...given }
  for (const option of OPTIONS) {
    if (known[option.key] !== undefined || !option.prompt) continue
    // A row whose needed answer is off is not asked: its default (off) is the only answer left.
    if (option.needs?.some((key) => !isOn(known[key]))) continue
    const reply = await prompts(question(option, known, env), { onCancel })
    Object.assign(known, { [option.key]: reply[option.key] })
  }
  return known
}
