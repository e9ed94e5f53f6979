import fs from 'node:fs'
import type { FeatureConfig } from '../features/types.js'
import { paths } from '../paths.js'
import { project } from './project.js'
import { security } from './security.js'

export type NodeEnv = 'development' | 'production' | 'test'
export type SameSite = 'lax' | 'none'
export type MailTransport = 'smtp' | 'log'

/** The secrets feature layers require (their `config.ts` lists the names; they declare them here). */
export interface FeatureSecrets {}

/** The other variables feature layers read (their `config.ts` parses them; they declare them here). */
export interface FeatureEnv {}

export interface Env extends FeatureSecrets, FeatureEnv {
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
  /** `log`: mail goes to the log and storage/mail/, even with SMTP_URL set (mail/mailer.ts). */
  MAIL_TRANSPORT: MailTransport
  MAIL_FROM: string
  JWT_ACCESS_SECRET: string
  JWT_REFRESH_SECRET: string
  COOKIE_SECRET: string
  COOKIE_SAMESITE: SameSite
  /** In production, cookie names start with `__Host-` (services/cookies.ts). */
  COOKIE_HOST_PREFIX: boolean
  CORS_ORIGINS: string[]
  TRUST_PROXY: boolean | number | string | undefined
  /** Names this instance in an `X-Instance-Id` header on every answer (behind a load balancer). */
  INSTANCE_ID: string | undefined
  /** New passwords are checked against Have I Been Pwned's range API (services/breached-passwords.ts). */
  PWNED_PASSWORDS: boolean
  /** The range API's origin: the public one, or a mirror (tests use a local stand-in). */
  PWNED_PASSWORDS_URL: string
  /** How long a confirmation of the signed-in person lasts (step-up: security/confirmation.ts). */
  CONFIRM_TTL_SECONDS: number
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

/** Every secret the app requires: base's and the feature layers'. */
export const secretNames = (features: ConfiguredFeatures): string[] => [
  'JWT_ACCESS_SECRET',
  'JWT_REFRESH_SECRET',
  'COOKIE_SECRET',
  ...features.flatMap((feature) => feature.config?.secrets ?? []),
]

/** Reads `.env` from the project root (real environment variables win) and validates it. */
export function loadEnv(features: ConfiguredFeatures, source: NodeJS.ProcessEnv = process.env): Env {
  if (fs.existsSync(paths.env)) process.loadEnvFile(paths.env)
  return parseEnv(source, features)
}

export function parseEnv(source: Source, features: ConfiguredFeatures): Env {
  const errors: string[] = []
  // An empty value (`REDIS_URL=`) means unset, as in most .env loaders.
  const read = (name: string): string | undefined => {
    const value = source[name]?.trim()
    return value === '' ? undefined : value
  }
  const fail = (name: string, problem: string) => {
    errors.push(`Invalid environment variable ${name}: ${problem}`)
  }

  const nodeEnv = read('NODE_ENV') ?? 'development'
  if (!['development', 'production', 'test'].includes(nodeEnv)) {
    fail('NODE_ENV', `"${nodeEnv}" is not one of development, production, test.`)
  }

  const portText = read('PORT') ?? '3000'
  const port = Number(portText)
  if (!/^\d+$/.test(portText) || port > 65535) fail('PORT', `"${portText}" is not a port number (0-65535).`)

  let baseUrl = 'http://localhost:3000'
  let baseOrigin = baseUrl
  const baseText = read('BASE_URL')
  if (baseText !== undefined) {
    const url = parseUrl(baseText, ['http:', 'https:'])
    if (!url) fail('BASE_URL', `"${baseText}" is not an http(s) URL such as http://localhost:3000.`)
    else {
      baseUrl = (url.origin + url.pathname).replace(/\/+$/, '')
      baseOrigin = url.origin
    }
  }

  const databaseUrl = read('DATABASE_URL') ?? project.defaultDatabaseUrl
  if (!/^(sqlite|mysql|mariadb|postgres|postgresql):/.test(databaseUrl)) {
    fail('DATABASE_URL', 'must start with sqlite:, mysql:// or postgres:// (for example sqlite:./data/app.sqlite).')
  } else if (/^postgres(ql)?:/.test(databaseUrl)) {
    if (!parseUrl(databaseUrl, ['postgres:', 'postgresql:'])?.pathname.slice(1)) {
      fail('DATABASE_URL', 'a PostgreSQL URL must name the database, as in postgres://postgres@127.0.0.1:5432/my_app.')
    }
  } else if (!databaseUrl.startsWith('sqlite:') && !parseUrl(databaseUrl, ['mysql:', 'mariadb:'])?.pathname.slice(1)) {
    fail('DATABASE_URL', 'a MySQL URL must name the database, as in mysql://root@127.0.0.1:3306/my_app.')
  }

  const redisUrl = read('REDIS_URL')
  if (redisUrl !== undefined && !parseUrl(redisUrl, ['redis:', 'rediss:'])) {
    fail('REDIS_URL', `"${redisUrl}" is not a redis:// or rediss:// URL.`)
  }
  const smtpUrl = read('SMTP_URL')
  if (smtpUrl !== undefined && !parseUrl(smtpUrl, ['smtp:', 'smtps:'])) {
    fail('SMTP_URL', `"${smtpUrl}" is not an smtp:// or smtps:// URL.`)
  }
  const mailTransportText = read('MAIL_TRANSPORT')
  const mailTransport = (mailTransportText ?? (smtpUrl !== undefined ? 'smtp' : 'log')).toLowerCase()
  if (mailTransport !== 'smtp' && mailTransport !== 'log') {
    fail('MAIL_TRANSPORT', `"${mailTransport}" is not smtp or log.`)
  } else if (smtpUrl === undefined && mailTransport === 'smtp') {
    fail('SMTP_URL', 'is required with MAIL_TRANSPORT=smtp (for example smtp://user:pass@smtp.example.com:587).')
  } else if (smtpUrl === undefined && nodeEnv === 'production' && mailTransportText === undefined) {
    // Without SMTP every reset and verification link would sit in the log, readable by whoever
    // reads the logs: in production that has to be asked for, not fallen into.
    fail('SMTP_URL', 'is required in production (for example smtp://user:pass@smtp.example.com:587); set MAIL_TRANSPORT=log if mail is meant to go to the log.')
  }
  const mailFrom = read('MAIL_FROM') ?? 'no-reply@localhost'

  const pwnedText = (read('PWNED_PASSWORDS') ?? 'on').toLowerCase()
  if (pwnedText !== 'on' && pwnedText !== 'off') fail('PWNED_PASSWORDS', `"${pwnedText}" is not on or off.`)
  const pwnedUrlText = read('PWNED_PASSWORDS_URL') ?? 'https://api.pwnedpasswords.com'
  const pwnedUrl = parseUrl(pwnedUrlText, ['http:', 'https:'])
  if (!pwnedUrl) fail('PWNED_PASSWORDS_URL', `"${pwnedUrlText}" is not an http(s) URL such as https://api.pwnedpasswords.com.`)

  const confirmTtlText = read('CONFIRM_TTL') ?? '15m'
  const confirmTtl = durationSeconds(confirmTtlText)
  if (confirmTtl === null) fail('CONFIRM_TTL', `"${confirmTtlText}" is not a duration such as 15m, 900s or 1h.`)

  const secrets: Record<string, string> = {}
  for (const name of secretNames(features)) {
    const value = read(name)
    const hint = 'generate one with: node -e "console.log(require(\'crypto\').randomBytes(32).toString(\'hex\'))"'
    if (value === undefined) fail(name, `is required; ${hint}`)
    else if (PLACEHOLDER.test(value)) fail(name, `is still the placeholder "${value}"; ${hint}`)
    else if (value.length < security.minSecretLength) {
      fail(name, `must be at least ${security.minSecretLength} characters (it has ${value.length}); ${hint}`)
    }
    secrets[name] = value ?? ''
  }

  const sameSite = (read('COOKIE_SAMESITE') ?? 'lax').toLowerCase()
  if (sameSite !== 'lax' && sameSite !== 'none') fail('COOKIE_SAMESITE', `"${sameSite}" is not lax or none.`)

  const hostPrefix = (read('COOKIE_HOST_PREFIX') ?? 'false').toLowerCase()
  if (hostPrefix !== 'true' && hostPrefix !== 'false') fail('COOKIE_HOST_PREFIX', `"${hostPrefix}" is not true or false.`)

  const corsOrigins: string[] = []
  for (const entry of (read('CORS_ORIGINS') ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const url = parseUrl(entry, ['http:', 'https:'])
    // A wildcard or a path would make the allow-list meaningless or never match.
    if (!url || url.origin !== entry.replace(/\/$/, '')) {
      fail('CORS_ORIGINS', `"${entry}" is not an origin such as https://admin.example.com (no path, no wildcard).`)
    } else corsOrigins.push(url.origin)
  }
  if (sameSite === 'none' && corsOrigins.length === 0) {
    fail('COOKIE_SAMESITE', 'none is only for cross-origin clients: list them in CORS_ORIGINS.')
  }

  const trustText = read('TRUST_PROXY')
  let trustProxy: Env['TRUST_PROXY']
  if (trustText === 'true' || trustText === 'false') trustProxy = trustText === 'true'
  else if (trustText !== undefined && /^\d+$/.test(trustText)) trustProxy = Number(trustText)
  else trustProxy = trustText

  const redisPrefix = read('REDIS_PREFIX')
  if (redisPrefix !== undefined && !/^[\w:.-]{1,64}$/.test(redisPrefix)) {
    fail('REDIS_PREFIX', 'may hold only letters, digits and _ : . - (at most 64).')
  }

  const instanceId = read('INSTANCE_ID')
  if (instanceId !== undefined && !/^[\w.-]{1,64}$/.test(instanceId)) {
    fail('INSTANCE_ID', 'may hold only letters, digits and _ . - (at most 64).')
  }

  const base = { NODE_ENV: nodeEnv as NodeEnv, BASE_URL: baseUrl, BASE_ORIGIN: baseOrigin }
  const featureEnv = Object.assign({}, ...features.map((feature) => feature.config?.env?.(read, fail, base))) as FeatureEnv

  if (errors.length > 0) throw new EnvError(errors)

  return {
    NODE_ENV: nodeEnv as NodeEnv,
    PORT: port,
    BASE_URL: baseUrl,
    BASE_ORIGIN: baseOrigin,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: redisPrefix,
    SMTP_URL: smtpUrl,
    MAIL_TRANSPORT: mailTransport as MailTransport,
    MAIL_FROM: mailFrom,
    ...(secrets as unknown as Pick<Env, 'JWT_ACCESS_SECRET' | 'JWT_REFRESH_SECRET' | 'COOKIE_SECRET'> & FeatureSecrets),
    COOKIE_SAMESITE: sameSite as SameSite,
    COOKIE_HOST_PREFIX: hostPrefix === 'true',
    CORS_ORIGINS: corsOrigins,
    TRUST_PROXY: trustProxy,
    INSTANCE_ID: instanceId,
    PWNED_PASSWORDS: pwnedText === 'on',
    PWNED_PASSWORDS_URL: (pwnedUrl?.origin ?? '') + (pwnedUrl?.pathname ?? '').replace(/\/+$/, ''),
    CONFIRM_TTL_SECONDS: confirmTtl ?? 0,
    ...featureEnv,
  }
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 }

/** `900`, `900s`, `15m`, `1h` → seconds; null for anything else. */
function durationSeconds(text: string): number | null {
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
