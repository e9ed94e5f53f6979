import { formatDuration, parseDuration } from './duration.js'

/**
 * The single source of truth for the CLI: every answer the generator takes is one row here.
 * The commander flags, `--help`, the prompts, validation, the non-interactive defaults, the
 * reproduce-this-project command and the test variants are all derived from this table.
 */

export const DATABASES = ['sqlite', 'mysql', 'postgres'] as const
export const PACKAGE_MANAGERS = ['npm', 'pnpm', 'yarn', 'bun'] as const
export const OAUTH_PROVIDERS = ['github', 'google', 'oidc'] as const
export type Database = (typeof DATABASES)[number]
export type PackageManager = (typeof PACKAGE_MANAGERS)[number]
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number]

export interface Answers {
  db: Database
  accessTtl: number
  refreshTtl: number
  rememberTtl: number
  emailVerification: boolean
  cookieName: string
  twoFactor: boolean
  passkeys: boolean
  oauth: OAuthProvider[]
  teams: boolean
  apiKeys: boolean
  pm: PackageManager
  install: boolean
  git: boolean
}

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

interface Row<K extends keyof Answers> {
  key: K
  /** The long flag; booleans also get `--no-<name>`. */
  flag: `--${string}`
  /** Shown in `--help` after the flag, for valued options. */
  valueName?: string
  description: string
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
   * tag change together. Rows with `choices` are covered value by value without this.
   */
  matrix?: { tag: string; custom?: string }
  /**
   * For a feature: the template layer (`templates/<layer>/`) that a yes adds, or, for a list, a
   * non-empty answer, followed by `templates/<layer>-<value>/` for each value chosen.
   */
  layer?: K extends FeatureKey ? string : never
  /**
   * A yes/no row that `add <flag name>` turns on although it has no layer of its own. Rows with a
   * `layer` are features already: `add <flag name>`, or `add <layer>-<value>` for a list.
   */
  feature?: K extends FeatureKey ? true : never
  /** Chosen once for good: why `update` refuses to change it. */
  fixed?: string
  /**
   * How this run sets the app up rather than what the app is: never recorded in cookie-auth.json,
   * so `update` decides it afresh (the package manager from the app's lockfile).
   */
  setup?: K extends SetupKey ? true : never
}

/** The rows marked `setup`; cookie-auth.json records every other answer. */
export type SetupKey = 'pm' | 'install' | 'git'
export type RecordedAnswers = Omit<Answers, SetupKey>

type FeatureKey = { [K in keyof Answers]: Answers[K] extends boolean | string[] ? K : never }[keyof Answers]

export type OptionRow = { [K in keyof Answers]: Row<K> }[keyof Answers]

function choice<T extends string>(values: readonly T[]) {
  return (text: string): T => {
    if ((values as readonly string[]).includes(text)) return text as T
    throw new InvalidValue(`use ${values.join(' or ')}`)
  }
}

/** A comma list of `values` (in their order, once each), or `none`. */
function list<T extends string>(values: readonly T[]) {
  return (text: string): T[] => {
    const items = text.split(',').map((item) => item.trim().toLowerCase()).filter(Boolean)
    if (items.length === 1 && items[0] === 'none') return []
    if (items.some((item) => !(values as readonly string[]).includes(item))) {
      throw new InvalidValue(`use none or a comma list of ${values.join(', ')}`)
    }
    return values.filter((value) => items.includes(value))
  }
}

const formatList = (values: readonly string[]) => (values.length ? values.join(',') : 'none')

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

function row<K extends keyof Answers>(definition: Row<K>): OptionRow {
  return definition as unknown as OptionRow
}

export const OPTIONS: readonly OptionRow[] = [
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
  }),
  row({
    key: 'emailVerification',
    flag: '--email-verification',
    description: 'require a verified e-mail before login',
    prompt: 'Require a verified e-mail before login?',
    default: () => false,
    feature: true,
    matrix: { tag: 'verify' },
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
  }),
  row({
    key: 'twoFactor',
    flag: '--two-factor',
    description: 'offer two-factor authentication (TOTP)',
    prompt: 'Offer two-factor authentication (TOTP)?',
    default: () => false,
    layer: 'two-factor',
    matrix: { tag: '2fa' },
  }),
  row({
    key: 'passkeys',
    flag: '--passkeys',
    description: 'offer passkeys (WebAuthn)',
    prompt: 'Offer passkeys (WebAuthn)?',
    default: () => false,
    layer: 'passkeys',
    matrix: { tag: 'passkeys' },
  }),
  row({
    key: 'oauth',
    flag: '--oauth',
    valueName: '<providers>',
    description: `sign in with (none, or a comma list of ${OAUTH_PROVIDERS.join(', ')})`,
    prompt: 'Sign in with',
    choices: OAUTH_PROVIDERS,
    multiple: true,
    default: () => [],
    parse: list(OAUTH_PROVIDERS),
    format: formatList,
    layer: 'oauth',
    matrix: { tag: 'oauth', custom: OAUTH_PROVIDERS.join(',') },
  }),
  row({
    key: 'teams',
    flag: '--teams',
    description: 'teams: a personal team per user, shared teams with roles and invitations',
    prompt: 'Add teams (shared workspaces with roles and invitations)?',
    default: () => false,
    layer: 'teams',
    matrix: { tag: 'teams' },
  }),
  row({
    key: 'apiKeys',
    flag: '--api-keys',
    description: 'API keys: personal keys with scopes for scripts and servers (Authorization: Bearer)',
    prompt: 'Offer API keys?',
    default: () => false,
    layer: 'api-keys',
    matrix: { tag: 'keys' },
  }),
  row({
    key: 'pm',
    flag: '--pm',
    valueName: '<npm|pnpm|yarn|bun>',
    description: 'package manager',
    defaultHelp: 'the one that launched this command, else npm',
    default: (env) => detectPackageManager(env.userAgent),
    parse: choice(PACKAGE_MANAGERS),
    setup: true,
  }),
  row({
    key: 'install',
    flag: '--install',
    description: 'install dependencies after generating',
    prompt: 'Install dependencies now?',
    default: () => true,
    setup: true,
  }),
  row({
    key: 'git',
    flag: '--git',
    description: 'initialise a git repository',
    defaultHelp: 'yes when git is on PATH',
    prompt: 'Initialise a git repository?',
    default: (env) => env.gitAvailable,
    setup: true,
  }),
]

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

/** What `add <name>` turns on: a yes/no row, or one value of a list row. */
export interface Feature {
  name: string
  key: keyof Answers
  /** For a list row: the value added to the list. */
  value?: string
}

/** The features `add` knows, in table order: each layer (a list's one per value) and each row marked `feature`. */
export const FEATURES: readonly Feature[] = OPTIONS.flatMap((option): Feature[] => {
  if (option.layer && option.choices) return option.choices.map((value) => ({ name: `${option.layer}-${value}`, key: option.key, value }))
  return option.layer || option.feature ? [{ name: option.flag.slice(2), key: option.key }] : []
})
