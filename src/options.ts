import { formatDuration, parseDuration } from './duration.js'
import { LAYER_MODULES } from './layer-rows.js'
import { InvalidValue, type LayerAnswers, NO_LAYER, type OptionRow, type SetupKey, choice, row } from './option-row.js'

/**
 * The single source of truth for the CLI: every answer the generator takes is one row here.
 * The commander flags, `--help`, the prompts, validation, the non-interactive defaults, the
 * reproduce-this-project command, the test variants and README.md's options table are all derived
 * from this table. Base's rows are below; each feature layer's row lives with the layer, in
 * `templates/<layer>/layer.ts`, and comes in at LAYER_ORDER's place.
 */

export { type Environment, type FeatureKey, InvalidValue, type LayerAnswers, NO_LAYER, type OptionRow, type Row, type SetupKey } from './option-row.js'

export const DATABASES = ['sqlite', 'mysql', 'postgres'] as const
export const PACKAGE_MANAGERS = ['npm', 'pnpm', 'yarn', 'bun'] as const
export type Database = (typeof DATABASES)[number]
export type PackageManager = (typeof PACKAGE_MANAGERS)[number]

/** The answers of base's rows; each feature layer adds its own (LayerAnswers, from its layer.ts). */
export interface BaseAnswers {
  db: Database
  accessTtl: number
  refreshTtl: number
  rememberTtl: number
  emailVerification: boolean
  cookieName: string
  pm: PackageManager
  install: boolean
  git: boolean
}

export interface Answers extends BaseAnswers, LayerAnswers {}

export type RecordedAnswers = Omit<Answers, SetupKey>

function duration(text: string): number {
  const seconds = parseDuration(text)
  if (seconds === null) {
    throw new InvalidValue('use whole seconds (900) or a number with s, m, h or d (15m, 30d)')
  }
  return seconds
}

const COOKIE_PREFIX = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/

function detectPackageManager(userAgent: string | undefined): PackageManager {
  const name = userAgent?.split('/')[0]
  return (PACKAGE_MANAGERS as readonly string[]).includes(name ?? '') ? (name as PackageManager) : 'npm'
}

/** Base's rows of what the app is: the table's first rows. */
const APP_ROWS: readonly OptionRow[] = [
  row({
    key: 'db',
    flag: '--db',
    valueName: `<${DATABASES.join('|')}>`,
    description: 'database',
    prompt: 'Database',
    choices: DATABASES,
    default: () => 'sqlite',
    parse: choice(DATABASES),
    fixed: 'moving data between databases is not a template change',
    readme: 'the database the app runs on (Sequelize driver, `DATABASE_URL`, `deploy/compose.yaml`)',
  }),
  row({
    key: 'accessTtl',
    flag: '--access-ttl',
    valueName: '<duration>',
    description: 'access token life',
    prompt: 'Access token life',
    default: () => 900,
    parse: duration,
    format: formatDuration,
    matrix: { tag: 'custom', custom: '10m' },
    readme: 'life of the access token and its cookie (`server/src/kernel/config/auth.ts`)',
  }),
  row({
    key: 'refreshTtl',
    flag: '--refresh-ttl',
    valueName: '<duration>',
    description: 'refresh token life',
    prompt: 'Refresh token life',
    default: () => 3600,
    parse: duration,
    format: formatDuration,
    matrix: { tag: 'custom', custom: '2h' },
    readme: 'life of a sign-in without "remember me"',
  }),
  row({
    key: 'rememberTtl',
    flag: '--remember-ttl',
    valueName: '<duration>',
    description: 'refresh token life with "remember me"',
    prompt: 'Refresh token life with "remember me"',
    default: () => 2592000,
    parse: duration,
    format: formatDuration,
    matrix: { tag: 'custom', custom: '14d' },
    readme: 'life of a sign-in with "remember me"',
  }),
  row({
    key: 'emailVerification',
    flag: '--email-verification',
    description: 'require a verified e-mail before login',
    negated: 'let accounts sign in before verifying their e-mail',
    prompt: 'Require a verified e-mail before login?',
    default: () => false,
    feature: true,
    matrix: { tag: 'verify' },
    readme: 'registration mails a link and the account can sign in once the link is opened; login refuses unverified addresses',
  }),
  row({
    key: 'cookieName',
    flag: '--cookie-name',
    valueName: '<prefix>',
    description: 'cookie name prefix: {prefix}_access, _refresh, _session',
    prompt: 'Cookie name prefix',
    default: () => 'app',
    parse: (text) => {
      if (COOKIE_PREFIX.test(text)) return text
      throw new InvalidValue('use a letter followed by up to 31 letters, digits, _ or -')
    },
    matrix: { tag: 'custom', custom: 'acme' },
    readme: 'cookie names `{prefix}_access`, `_refresh`, `_session` (and the Redis key prefix)',
  }),
]

/** Base's rows of how this run sets the app up (`setup`): the table's last rows. */
const SETUP_ROWS: readonly OptionRow[] = [
  row({
    key: 'pm',
    flag: '--pm',
    valueName: '<npm|pnpm|yarn|bun>',
    description: 'package manager',
    defaultHelp: 'the one that launched this command, else npm',
    default: (env) => detectPackageManager(env.userAgent),
    parse: choice(PACKAGE_MANAGERS),
    setup: true,
    readme:
      'the package manager the scripts, next steps and install use: npm 11, pnpm 10, yarn 1, yarn 4 (its default Plug\'n\'Play linker) or bun 1, each proven before every release (`npm run test:install -- --all`; CI installs with npm and pnpm on each run)',
  }),
  row({
    key: 'install',
    flag: '--install',
    description: 'install dependencies after generating',
    negated: 'do not install dependencies (install them yourself later)',
    prompt: 'Install dependencies now?',
    default: () => true,
    setup: true,
    readme: 'installs the dependencies after generating',
  }),
  row({
    key: 'git',
    flag: '--git',
    description: 'initialise a git repository',
    negated: 'do not initialise a git repository',
    defaultHelp: 'yes when git is on PATH',
    prompt: 'Initialise a git repository?',
    default: (env) => env.gitAvailable,
    setup: true,
    readme: '`git init` and a first commit',
  }),
]

/**
 * The feature layers' rows, between APP_ROWS and SETUP_ROWS, in this order: the one place that
 * states it (it is the order of `--help`, the prompts, the layers applied and the variant ids).
 * A layer not named here comes after these, by folder name, so adding a layer takes its folder
 * alone; naming it here moves it.
 */
export const LAYER_ORDER: readonly string[] = ['two-factor', 'passkeys', 'oauth', 'teams', 'api-keys', 'identity-provider', 'sso', 'passwordless', 'captcha']

/** A layer.ts's default export, checked as far as a value can be: an object row of that layer. */
function layerRow({ name, exports }: { name: string; exports: unknown }): OptionRow {
  const found = (exports as { default?: unknown } | null)?.default
  if (typeof found !== 'object' || found === null || (found as { layer?: unknown }).layer !== name || typeof (found as { key?: unknown }).key !== 'string') {
    throw new Error(`templates/${name}/layer.ts: its default export must be defineOption({ …, layer: '${name}' })`)
  }
  return found as OptionRow
}

function rank(layer: string): number {
  const at = LAYER_ORDER.indexOf(layer)
  return at === -1 ? LAYER_ORDER.length : at
}

/** The feature layers' rows in LAYER_ORDER (then by name). */
export const LAYER_ROWS: readonly OptionRow[] = LAYER_MODULES.map(layerRow).sort(
  (a, b) => rank(a.layer!) - rank(b.layer!) || (a.layer! < b.layer! ? -1 : a.layer! > b.layer! ? 1 : 0),
)

export const OPTIONS: readonly OptionRow[] = [...APP_ROWS, ...LAYER_ROWS, ...SETUP_ROWS]

type DurationKey = 'accessTtl' | 'refreshTtl' | 'rememberTtl'

/**
 * Rules between two answers. When one breaks, the error names the side the user chose last
 * (a flag over a default, the prompt being answered over an earlier answer).
 */
export const RULES: readonly {
  first: DurationKey
  second: DurationKey
  holds: (first: number, second: number) => boolean
  /** What the first must be, given the second; and the other way round. */
  firstMust: (second: number) => string
  secondMust: (first: number) => string
}[] = [
  {
    first: 'accessTtl',
    second: 'refreshTtl',
    holds: (access, refresh) => access < refresh,
    firstMust: (refresh) => `must be shorter than the refresh token life (${formatDuration(refresh)})`,
    secondMust: (access) => `must be longer than the access token life (${formatDuration(access)})`,
  },
  {
    first: 'refreshTtl',
    second: 'rememberTtl',
    holds: (refresh, remember) => refresh <= remember,
    firstMust: (remember) => `must be at most the "remember me" life (${formatDuration(remember)})`,
    secondMust: (refresh) => `must be at least the refresh token life (${formatDuration(refresh)})`,
  },
]

export function isBoolean(option: OptionRow): boolean {
  return option.parse === undefined
}

/** A layer's row answered with one of its choices (`--captcha cap`): its layer for any answer but `none`. */
export function isSingleChoiceLayer(option: OptionRow): boolean {
  return option.layer !== undefined && option.choices !== undefined && !option.multiple
}

/**
 * Whether the variant matrix covers the row value by value: base's prompted single choices (the
 * database). A layer's single choice is covered by its `matrix` tag instead, like any layer.
 */
export function variesByChoice(option: OptionRow): boolean {
  return option.choices !== undefined && option.prompt !== undefined && !option.multiple && option.layer === undefined
}

/** The answer that turns on all a layer row brings: yes, every value of a list, a single choice's `matrix.custom`. */
export function fullestAnswer(option: OptionRow): Answers[keyof Answers] {
  if (isSingleChoiceLayer(option)) return option.matrix!.custom!
  return option.choices ? ([...option.choices] as Answers[keyof Answers]) : true
}

/** `access-ttl` → `accessTtl`: a flag's or a layer's name as an identifier. */
export const camelCase = (name: string) => name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())

/** The commander attribute name of a flag: `--access-ttl` → `accessTtl`. */
export function attributeName(option: OptionRow): string {
  return camelCase(option.flag.slice(2))
}

/** The flags that reproduce `answers` exactly, in table order (those given, for a partial set). */
export function answersToArgs(answers: Partial<Answers>): string[] {
  return OPTIONS.flatMap((option) => {
    const value = answers[option.key]
    if (value === undefined) return []
    if (typeof value === 'boolean') return [value ? option.flag : `--no-${option.flag.slice(2)}`]
    const format = option.format as ((v: typeof value) => string) | undefined
    return [option.flag, format ? format(value) : String(value)]
  })
}

/** The rows cookie-auth.json records. */
export const RECORDED_OPTIONS: readonly OptionRow[] = OPTIONS.filter((option) => !option.setup)

/** What `add <name>` turns on: a yes/no row, one value of a list row, or a single choice's value. */
export interface Feature {
  name: string
  key: keyof Answers
  /** For a list row: the value added to the list; for a single choice: the answer. */
  value?: string
}

/**
 * The features `add` knows, in table order: each layer (a list's one per value, a single choice's
 * one per value but `none`: `captcha-cap`) and each row marked `feature`.
 */
export const FEATURES: readonly Feature[] = OPTIONS.flatMap((option): Feature[] => {
  if (option.layer && option.choices) {
    const values = option.choices.filter((value) => option.multiple || value !== NO_LAYER)
    return values.map((value) => ({ name: `${option.layer}-${value}`, key: option.key, value }))
  }
  return option.layer || option.feature ? [{ name: option.flag.slice(2), key: option.key }] : []
})
