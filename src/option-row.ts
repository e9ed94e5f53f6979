import type { Answers } from './options.js'

/**
 * What a row of the options table is, and the helpers rows are written with. A feature layer's
 * row lives with the layer, in `templates/<layer>/layer.ts` (`defineOption` below); base's rows
 * are in src/options.ts, which assembles the table.
 */

/**
 * The answers of the feature layers, one member per layer: each `templates/<layer>/layer.ts`
 * declares its own (`declare module '../../src/option-row.js' { interface LayerAnswers { … } }`),
 * and `Answers` (src/options.ts) extends this.
 */
export interface LayerAnswers {}

/** What the defaults may depend on: the environment the CLI was started in. */
export interface Environment {
  userAgent: string | undefined
  gitAvailable: boolean
}

/** A value that failed its rule; `allowed` completes "… is invalid: <allowed>". */
export class InvalidValue extends Error {
  constructor(readonly allowed: string) {
    super(allowed)
  }
}

export interface Row<K extends keyof Answers> {
  key: K
  /** The long flag; booleans also get `--no-<name>`. */
  flag: `--${string}`
  /** Shown in `--help` after the flag, for valued options. */
  valueName?: string
  description: string
  /**
   * A yes/no row's `--no-<flag>` line in `--help`, a sentence of its own ("do not offer …"): a
   * description does not always read right after "do not" (test/options.test.ts requires one).
   */
  negated?: string
  /**
   * The answers this one needs on (`options --json` states them): the keys of yes/no rows, or of
   * list rows needing a non-empty list.
   */
  needs?: readonly (keyof Answers)[]
  /** How `--help` states the default, where it depends on the environment. */
  defaultHelp?: string
  /** The prompt's question; rows without one are never asked. */
  prompt?: string
  /** Choices, for a prompt offering a list. */
  choices?: readonly string[]
  /** The answer is a list of `choices` (a multi-select prompt; a comma list on the command line). */
  multiple?: boolean
  default: (env: Environment) => Answers[K]
  /** Text → value, for valued flags and text prompts. Throws InvalidValue. */
  parse?: (text: string) => Answers[K]
  /** Value → the flag's text, for the reproduce command. */
  format?: (value: Answers[K]) => string
  /**
   * How the variant matrix (src/variants.ts) covers this answer besides its default: `tag` names
   * the other value in variant ids, `custom` is that value for a valued option. Options sharing a
   * tag change together. Base's rows with `choices` (the database) are covered value by value
   * without this; a layer's single choice is covered by its tag alone, one value standing for the
   * others, which share the layer's code.
   */
  matrix?: { tag: string; custom?: string }
  /**
   * For a feature: the template layer (`templates/<layer>/`) that a yes adds, or, for a list, a
   * non-empty answer, followed by `templates/<layer>-<value>/` for each value chosen, or, for a
   * single choice, any answer but `none` (NO_LAYER), the files reading the answer itself.
   */
  layer?: K extends FeatureKey ? string : never
  /**
   * A yes/no row that `add <flag name>` turns on although it has no layer of its own. Rows with a
   * `layer` are features already: `add <flag name>`, or `add <layer>-<value>` for a list or a
   * single choice (each value but `none`).
   */
  feature?: K extends FeatureKey ? true : never
  /** Chosen once for good: why `update` refuses to change it. */
  fixed?: string
  /**
   * How this run sets the app up rather than what the app is: never recorded in cookie-auth.json,
   * so `update` decides it afresh (the package manager from the app's lockfile).
   */
  setup?: K extends SetupKey ? true : never
  /** README.md's options table, "what it generates" (Markdown; `npm run readme:options` writes the table). */
  readme: string
  /**
   * The default as the contract (CONTRACT.md §1's table) states it, `no` or `none`: a layer's row
   * says it itself, and test/options.test.ts holds the row's default to it.
   */
  contractDefault?: string
  /**
   * Other layers' names that are words of this layer's own vocabulary (`oauth` for the OAuth
   * provider, whose standards and paths are named so): that layer's "leaves no trace when off"
   * check (test/generate.test.ts) does not read the files this layer ships.
   */
  speaks?: readonly string[]
}

/** The rows marked `setup`; cookie-auth.json records every other answer. */
export type SetupKey = 'pm' | 'install' | 'git'

/**
 * The answers a feature may hang on: yes/no rows, lists, and every layer's answer (a layer's single
 * choice, `--captcha cap`, is a string whose `none` adds no layer).
 */
export type FeatureKey = { [K in keyof Answers]: Answers[K] extends boolean | string[] ? K : never }[keyof Answers] | keyof LayerAnswers

/** A layer's single-choice answer that adds no layer: `--captcha none`. */
export const NO_LAYER = 'none'

export type OptionRow = { [K in keyof Answers]: Row<K> }[keyof Answers]

/** A row of base's table (src/options.ts). */
export function row<K extends keyof Answers>(definition: Row<K>): OptionRow {
  return definition as unknown as OptionRow
}

/** A feature layer's row: the layer's folder, how the variants cover it and the contract's default are required. */
export type LayerRow<K extends keyof LayerAnswers> = Row<K> & {
  layer: string
  matrix: { tag: string; custom?: string }
  contractDefault: string
}

/** The row of `templates/<layer>/layer.ts`, its default export. */
export function defineOption<K extends keyof LayerAnswers>(definition: LayerRow<K>): OptionRow {
  return definition as unknown as OptionRow
}

/** One of `values`. */
export function choice<T extends string>(values: readonly T[]) {
  return (text: string): T => {
    if ((values as readonly string[]).includes(text)) return text as T
    throw new InvalidValue(`use ${values.join(' or ')}`)
  }
}

/** A comma list of `values` (in their order, once each), or `none`. */
export function list<T extends string>(values: readonly T[]) {
  return (text: string): T[] => {
    const items = text.split(',').map((item) => item.trim().toLowerCase()).filter(Boolean)
    if (items.length === 1 && items[0] === 'none') return []
    if (items.some((item) => !(values as readonly string[]).includes(item))) {
      throw new InvalidValue(`use none or a comma list of ${values.join(', ')}`)
    }
    return values.filter((value) => items.includes(value))
  }
}

/** A list as its flag's text: `github,oidc`, or `none`. */
export const formatList = (values: readonly string[]) => (values.length ? values.join(',') : 'none')
