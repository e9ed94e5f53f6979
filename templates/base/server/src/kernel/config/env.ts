import fs from 'node:fs'
import { z } from 'zod'
import type { FeatureConfig } from '../feature.js'
import { paths } from '../paths.js'
import { project } from './project.js'
import { readRateLimitVariables } from './rate-limits.js'
import { security } from './security.js'

export type NodeEnv = 'development' | 'production' | 'test'
export type SameSite = 'lax' | 'none'
export type MailTransport = 'smtp' | 'log'

/**
 * Base's variables. `ctx.env` also holds each feature layer's (its `config.ts` names and reads
 * them): a slice reads its own through kernel/own-settings.ts `envOf`, typed by its `config`.
 */
export interface Env {
  NODE_ENV: NodeEnv
  PORT: number
  /** Public origin plus optional path prefix, without a trailing slash. */
  BASE_URL: string
  /** Origin of BASE_URL, the one the browser sends in `Origin`. */
  BASE_ORIGIN: string
  DATABASE_URL: string
  REDIS_URL: string | undefined
  /** Namespace of every Redis key, so several apps (or test runs) can share one Redis. */
  REDIS_PREFIX: string | undefined
  SMTP_URL: string | undefined
  /** `log`: mail goes to the log and storage/mail/, even with SMTP_URL set (kernel/mail/mailer.ts). */
  MAIL_TRANSPORT: MailTransport
  MAIL_FROM: string
  JWT_ACCESS_SECRET: string
  JWT_REFRESH_SECRET: string
  COOKIE_SECRET: string
  COOKIE_SAMESITE: SameSite
  /** In production, cookie names start with `__Host-` (kernel/auth/cookies.ts). */
  COOKIE_HOST_PREFIX: boolean
  CORS_ORIGINS: string[]
  TRUST_PROXY: boolean | number | string | undefined
  /** Names this instance in an `X-Instance-Id` header on every answer (behind a load balancer). */
  INSTANCE_ID: string | undefined
  /** New passwords are checked against Have I Been Pwned's range API (kernel/auth/breached-passwords.ts). */
  PWNED_PASSWORDS: boolean
  /** The range API's origin: the public one, or a mirror (tests use a local stand-in). */
  PWNED_PASSWORDS_URL: string
  /** How long a confirmation of the signed-in person lasts (step-up: kernel/security/confirmation.ts). */
  CONFIRM_TTL_SECONDS: number
  /** Serves the interactive API reference at /api/docs (on by default outside production). */
  API_DOCS: boolean
  /** Webhooks may reach loopback and private addresses (tests, a receiver on this machine): kernel/webhooks/address-guard.ts. */
  WEBHOOK_ALLOW_PRIVATE: boolean
  /** A named limit's count set in the environment (kernel/config/rate-limits.ts), base's or a layer's: `RATE_LIMIT_LOGIN_PER_EMAIL_IP`. */
  readonly [limit: `RATE_LIMIT_${string}`]: number | undefined
}

/** Whether browsers reach the app over https: what HSTS and upgrading requests depend on. */
export const servesHttps = (env: Pick<Env, 'BASE_URL'>): boolean => env.BASE_URL.startsWith('https:')

/** One line per bad variable, printed as is before exiting. */
export class EnvError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'))
    this.name = 'EnvError'
  }
}

type Source = Record<string, string | undefined>

const PLACEHOLDER = /change[-_ ]?me|placeholder/i

/** What env parsing reads of the feature layers: their variables and secrets. */
export type ConfiguredFeatures = readonly { config?: FeatureConfig }[]

/** Every secret the app requires: base's and the feature layers', each once (two layers may share one). */
export const secretNames = (features: ConfiguredFeatures): string[] => [
  ...new Set(['JWT_ACCESS_SECRET', 'JWT_REFRESH_SECRET', 'COOKIE_SECRET', ...features.flatMap((feature) => feature.config?.secrets ?? [])]),
]

/** Reads `.env` from the project root (real environment variables win) and validates it. */
export function loadEnv(features: ConfiguredFeatures, source: NodeJS.ProcessEnv = process.env): Env {
  if (fs.existsSync(paths.env)) process.loadEnvFile(paths.env)
  return parseEnv(source, features)
}

/**
 * Every variable of base is one zod schema of `variables` (a layer's come through its
 * `config.env`): a bad value is one line naming it, and start-up stops with all of them. The
 * rules that read two variables (the mail transport and SMTP, SameSite and CORS) run on the
 * values that parsed.
 */
export function parseEnv(source: Source, features: ConfiguredFeatures): Env {
  // An empty value (`REDIS_URL=`) means unset, as in most .env loaders.
  const read = (name: string): string | undefined => {
    const value = source[name]?.trim()
    return value === '' ? undefined : value
  }
  const errors: string[] = []
  const fail = (name: string, problem: string) => {
    errors.push(`Invalid environment variable ${name}: ${problem}`)
  }

  const schemas: Record<string, z.ZodType> = { ...variables, ...Object.fromEntries(secretNames(features).map((name) => [name, secret])) }
  const parsed: Record<string, unknown> = {}
  for (const [name, schema] of Object.entries(schemas)) {
    const result = schema.safeParse(read(name))
    if (result.success) parsed[name] = result.data
    else fail(name, result.error.issues[0]!.message)
  }
  const values = parsed as Parsed
  for (const [name, problem] of crossProblems(values, read('MAIL_TRANSPORT') !== undefined)) fail(name, problem)

  const base = { NODE_ENV: values.NODE_ENV ?? 'development', BASE_URL: values.BASE_URL ?? DEFAULT_BASE_URL, BASE_ORIGIN: new URL(values.BASE_URL ?? DEFAULT_BASE_URL).origin }
  const featureEnv: Record<string, unknown> = {}
  for (const feature of features) {
    for (const [name, reader] of Object.entries(feature.config?.env ?? {})) featureEnv[name] = reader(read, fail, base)
  }
  const rateLimits = readRateLimitVariables(features, read, fail)

  if (errors.length > 0) throw new EnvError(errors)
  const { MAIL_TRANSPORT, CONFIRM_TTL, API_DOCS, ...rest } = values
  return {
    ...(rest as typeof rest & Pick<Env, 'JWT_ACCESS_SECRET' | 'JWT_REFRESH_SECRET' | 'COOKIE_SECRET'>),
    BASE_ORIGIN: base.BASE_ORIGIN,
    MAIL_TRANSPORT: MAIL_TRANSPORT ?? (rest.SMTP_URL !== undefined ? 'smtp' : 'log'),
    CONFIRM_TTL_SECONDS: CONFIRM_TTL,
    API_DOCS: API_DOCS ?? base.NODE_ENV !== 'production',
    ...rateLimits,
    ...featureEnv,
  }
}

const DEFAULT_BASE_URL = 'http://localhost:3000'

/**
 * One variable: `parse` gets its text (undefined when unset) and returns its value, or
 * `problem(...)` saying what is wrong with it.
 */
const variable = <T>(parse: (text: string | undefined) => T | Problem) =>
  z.string().optional().transform((text, ctx) => {
    const value = parse(text)
    if (!(value instanceof Problem)) return value as T
    ctx.addIssue({ code: 'custom', message: value.message })
    return z.NEVER
  })

class Problem {
  constructor(readonly message: string) {}
}
const problem = (message: string) => new Problem(message)

const urlOf = (protocols: string[], example: string) =>
  variable((text) => (text === undefined || parseUrl(text, protocols) ? text : problem(`"${text}" is not ${example}.`)))

const plainName = (max: number, allowed: string, pattern: RegExp) =>
  variable((text) => (text === undefined || pattern.test(text) ? text : problem(`may hold only letters, digits and ${allowed} (at most ${max}).`)))

const hint = 'generate one with: node -e "console.log(require(\'crypto\').randomBytes(32).toString(\'hex\'))"'
const secret = variable((text) => {
  if (text === undefined) return problem(`is required; ${hint}`)
  if (PLACEHOLDER.test(text)) return problem(`is still the placeholder "${text}"; ${hint}`)
  if (text.length < security.minSecretLength) return problem(`must be at least ${security.minSecretLength} characters (it has ${text.length}); ${hint}`)
  return text
})

const variables = {
  NODE_ENV: variable((text = 'development') =>
    (['development', 'production', 'test'] as const).includes(text as NodeEnv) ? (text as NodeEnv) : problem(`"${text}" is not one of development, production, test.`),
  ),
  PORT: variable((text = '3000') => (/^\d+$/.test(text) && Number(text) <= 65535 ? Number(text) : problem(`"${text}" is not a port number (0-65535).`))),
  BASE_URL: variable((text) => {
    if (text === undefined) return DEFAULT_BASE_URL
    const url = parseUrl(text, ['http:', 'https:'])
    // Public origin plus optional path prefix, without a trailing slash.
    return url ? (url.origin + url.pathname).replace(/\/+$/, '') : problem(`"${text}" is not an http(s) URL such as http://localhost:3000.`)
  }),
  DATABASE_URL: variable((text = project.defaultDatabaseUrl) => {
    if (!/^(sqlite|mysql|mariadb|postgres|postgresql):/.test(text)) {
      return problem('must start with sqlite:, mysql:// or postgres:// (for example sqlite:./data/app.sqlite).')
    }
    if (/^postgres(ql)?:/.test(text) && !parseUrl(text, ['postgres:', 'postgresql:'])?.pathname.slice(1)) {
      return problem('a PostgreSQL URL must name the database, as in postgres://postgres@127.0.0.1:5432/my_app.')
    }
    if (/^(mysql|mariadb):/.test(text) && !parseUrl(text, ['mysql:', 'mariadb:'])?.pathname.slice(1)) {
      return problem('a MySQL URL must name the database, as in mysql://root@127.0.0.1:3306/my_app.')
    }
    return text
  }),
  REDIS_URL: urlOf(['redis:', 'rediss:'], 'a redis:// or rediss:// URL'),
  REDIS_PREFIX: plainName(64, '_ : . -', /^[\w:.-]{1,64}$/),
  SMTP_URL: urlOf(['smtp:', 'smtps:'], 'an smtp:// or smtps:// URL'),
  // Unset: smtp when SMTP_URL is set, else log (parseEnv).
  MAIL_TRANSPORT: variable((text) => {
    const transport = text?.toLowerCase()
    return transport === undefined || transport === 'smtp' || transport === 'log' ? (transport as MailTransport | undefined) : problem(`"${transport}" is not smtp or log.`)
  }),
  MAIL_FROM: variable((text = 'no-reply@localhost') => text),
  COOKIE_SAMESITE: variable((text = 'lax') => {
    const sameSite = text.toLowerCase()
    return sameSite === 'lax' || sameSite === 'none' ? (sameSite as SameSite) : problem(`"${sameSite}" is not lax or none.`)
  }),
  COOKIE_HOST_PREFIX: variable((text = 'false') => {
    const flag = text.toLowerCase()
    return flag === 'true' || flag === 'false' ? flag === 'true' : problem(`"${flag}" is not true or false.`)
  }),
  CORS_ORIGINS: variable((text = '') => {
    const origins: string[] = []
    for (const entry of text.split(',').map((part) => part.trim()).filter(Boolean)) {
      const url = parseUrl(entry, ['http:', 'https:'])
      // A wildcard or a path would make the allow-list meaningless or never match.
      if (!url || url.origin !== entry.replace(/\/$/, '')) return problem(`"${entry}" is not an origin such as https://admin.example.com (no path, no wildcard).`)
      origins.push(url.origin)
    }
    return origins
  }),
  TRUST_PROXY: variable((text): Env['TRUST_PROXY'] => {
    if (text === 'true' || text === 'false') return text === 'true'
    return text !== undefined && /^\d+$/.test(text) ? Number(text) : text
  }),
  INSTANCE_ID: plainName(64, '_ . -', /^[\w.-]{1,64}$/),
  PWNED_PASSWORDS: variable((text = 'on') => {
    const flag = text.toLowerCase()
    return flag === 'on' || flag === 'off' ? flag === 'on' : problem(`"${flag}" is not on or off.`)
  }),
  PWNED_PASSWORDS_URL: variable((text = 'https://api.pwnedpasswords.com') => {
    const url = parseUrl(text, ['http:', 'https:'])
    return url ? url.origin + url.pathname.replace(/\/+$/, '') : problem(`"${text}" is not an http(s) URL such as https://api.pwnedpasswords.com.`)
  }),
  WEBHOOK_ALLOW_PRIVATE: variable((text = 'off') => {
    const flag = text.toLowerCase()
    return flag === 'on' || flag === 'off' ? flag === 'on' : problem(`"${flag}" is not on or off.`)
  }),
  // Unset: on outside production, where the reference helps whoever builds on the API.
  API_DOCS: variable((text) => {
    if (text === undefined) return undefined
    const flag = text.toLowerCase()
    return flag === 'on' || flag === 'off' ? flag === 'on' : problem(`"${flag}" is not on or off.`)
  }),
  CONFIRM_TTL: variable((text = '15m') => durationSeconds(text) ?? problem(`"${text}" is not a duration such as 15m, 900s or 1h.`)),
}

type Parsed = { [K in keyof typeof variables]: z.output<(typeof variables)[K]> } & Record<string, unknown>

/** The rules across two variables, for those that parsed: one line each. */
function crossProblems(values: Partial<Parsed>, transportGiven: boolean): [string, string][] {
  const problems: [string, string][] = []
  if ('SMTP_URL' in values && 'MAIL_TRANSPORT' in values && values.SMTP_URL === undefined) {
    if (values.MAIL_TRANSPORT === 'smtp') {
      problems.push(['SMTP_URL', 'is required with MAIL_TRANSPORT=smtp (for example smtp://user:pass@smtp.example.com:587).'])
    } else if (values.NODE_ENV === 'production' && !transportGiven) {
      // Without SMTP every reset and verification link would sit in the log, readable by whoever
      // reads the logs: in production that has to be asked for, not fallen into.
      problems.push(['SMTP_URL', 'is required in production (for example smtp://user:pass@smtp.example.com:587); set MAIL_TRANSPORT=log if mail is meant to go to the log.'])
    }
  }
  if (values.COOKIE_SAMESITE === 'none' && values.CORS_ORIGINS?.length === 0) {
    problems.push(['COOKIE_SAMESITE', 'none is only for cross-origin clients: list them in CORS_ORIGINS.'])
  }
  return problems
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 }

/** `900`, `900s`, `15m`, `1h` → seconds; null for anything else. */
export function durationSeconds(text: string): number | null {
  const match = /^(\d{1,9})([smhd])?$/.exec(text)
  const seconds = match ? Number(match[1]) * UNIT_SECONDS[match[2] ?? 's']! : 0
  return seconds > 0 ? seconds : null
}

function parseUrl(text: string, protocols: string[]): URL | null {
  try {
    const url = new URL(text)
    return protocols.includes(url.protocol) ? url : null
  } catch {
    return null
  }
}
