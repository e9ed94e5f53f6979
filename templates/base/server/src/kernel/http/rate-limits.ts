import type { Request, RequestHandler, Response } from 'express'
import { ipKeyGenerator, MemoryStore, type Options, rateLimit, type RateLimitRequestHandler, type Store } from 'express-rate-limit'
import { LRUCache } from 'lru-cache'
import { RedisStore, type RedisReply } from 'rate-limit-redis'
import type { Limit } from '../config/rate-limits.js'
import type { AppContext } from '../context.js'
import { HttpError } from './errors.js'
import { FallbackStore } from './fallback-store.js'
import { normaliseEmail } from '../services/email-address.js'
import { translatorOf } from '../i18n/request-locale.js'
import { msg } from '../i18n/translate.js'
import type { RateLimiters } from './rate-limiters.js'

export type { RateLimiters } from './rate-limiters.js'

/** The submitted `email` as a limit's key: the address in its one form, so every spelling of it counts together. */
export const emailKeyOf = (req: Request): string => {
  const email = (req.body as { email?: unknown } | undefined)?.email
  return typeof email === 'string' ? (normaliseEmail(email) ?? email).slice(0, 255) : ''
}
/**
 * ipKeyGenerator parses every IPv6 form, the `::ffff:a.b.c.d` a dual-stack socket reports for
 * IPv4 clients included (about 0.15 ms each, and a login asks three times), so keys are
 * remembered per address, for a bounded number of addresses.
 */
const ipKeys = new LRUCache<string, string>({ max: 10_000 })
export function ipOf(req: Request): string {
  const ip = req.ip ?? 'unknown'
  let key = ipKeys.get(ip)
  if (key === undefined) ipKeys.set(ip, (key = ipKeyGenerator(ip)))
  return key
}
/** The submitted address from this client, as a limit's key. */
export const emailIpKeyOf = (req: Request): string => `${emailKeyOf(req)}|${ipOf(req)}`
const userOf = (req: Request) => String(req.auth?.id ?? 'none')
const sessionOf = (req: Request) => `${userOf(req)}|${req.sessionId ?? 'none'}`

export interface LimiterOptions {
  /** Keeps this limiter's counters apart from the others' (in Redis, its key prefix). */
  name: string
  limit: Limit
  /** Whose requests count together: an IP, a user, an address with an IP. */
  key: (req: Request) => string
  /** Count only the requests that failed (wrong passwords, wrong codes), not every one. */
  failuresOnly?: boolean
  /** Requests that do not count at all. */
  skip?: (req: Request) => boolean
  /** What a failure is, with `failuresOnly` (default: any status from 400 on). */
  failed?: (req: Request, res: Response) => boolean
}

export type Limiter = (options: LimiterOptions) => RateLimitRequestHandler

/**
 * Where a limit named `name` counts: with Redis the counters are shared by every instance of the
 * app; while it is down each instance counts on its own (kernel/http/fallback-store.ts). Without
 * Redis, in this process.
 */
export function limitStore(ctx: Pick<AppContext, 'redis' | 'keyPrefix'>, name: string): Store {
  const redis = ctx.redis
  if (!redis) return new MemoryStore()
  return new FallbackStore(
    new RedisStore({
      prefix: `${ctx.keyPrefix}rl:${name}:`,
      sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<RedisReply>,
    }),
  )
}

/** Builds the app's limiters; each answers 429 with Retry-After once its limit is reached. */
export function limiterFactory(ctx: AppContext): Limiter {
  return ({ name, limit, key, failuresOnly = false, skip = () => false, failed = (_req, res) => res.statusCode >= 400 }) =>
    rateLimit({
      ...limit,
      skip,
      requestWasSuccessful: (req, res) => !failed(req, res),
      standardHeaders: 'draft-7',
      legacyHeaders: false,
      skipSuccessfulRequests: failuresOnly,
      keyGenerator: (req) => key(req),
      store: limitStore(ctx, name),
      handler: (req, res) => {
        const retryAfter = res.getHeader('Retry-After')
        res.status(429).json({ message: translatorOf(req)('errors.throttled', { seconds: retryAfter ?? 60 }) })
      },
    })
}

/**
 * The app's 429, for a refusal that is not a limiter's middleware (a count taken inside a handler
 * or an authenticator, a lockout kept in the database): `Retry-After` in whole seconds until
 * `until` (epoch ms, at least 1 s), and the message with those seconds, `errors.throttled` unless
 * the refusal has words of its own. Throw what it returns.
 */
export function throttled(res: Response | undefined, until: number, message = 'errors.throttled'): HttpError {
  const seconds = Math.max(1, Math.ceil((until - Date.now()) / 1000))
  res?.setHeader('Retry-After', String(seconds))
  return new HttpError(429, msg(message, { seconds }))
}

/** The stores `countRequest` counts in, per app (a test builds several) and per limit name. */
const counters = new WeakMap<object, Map<string, Store>>()

function counterStore(ctx: Pick<AppContext, 'redis' | 'keyPrefix'>, name: string, windowMs: number): Store {
  let stores = counters.get(ctx)
  if (!stores) counters.set(ctx, (stores = new Map()))
  let store = stores.get(name)
  if (!store) {
    store = limitStore(ctx, name)
    store.init?.({ windowMs } as Options)
    stores.set(name, store)
  }
  return store
}

/**
 * Counts one request of `key` against the limit `name` where a limiter's middleware cannot sit
 * (an authenticator counting a credential once it is proven), in the same store as the limiters
 * (Redis, shared by every instance, when configured); past the limit, throws the app's 429 with
 * `Retry-After`, as a limiter answers.
 */
export async function countRequest(req: Request, ctx: Pick<AppContext, 'redis' | 'keyPrefix'>, options: { name: string; limit: Limit; key: string }): Promise<void> {
  const { limit, windowMs } = options.limit
  const { totalHits, resetTime } = await counterStore(ctx, options.name, windowMs).increment(options.key)
  if (totalHits <= limit) return
  throw throttled(req.res, resetTime?.getTime() ?? Date.now() + 60_000)
}

/** A wrong password, code or passkey (kernel/security/confirmation.ts `markWrongConfirmation`). */
const wrongConfirmation = (_req: Request, res: Response) => res.locals.wrongConfirmation !== undefined

/** Runs after the JSON body parser, since some keys are the submitted e-mail. */
export function createRateLimiters(ctx: AppContext): RateLimiters {
  const settings = ctx.rateLimits
  const limiter = limiterFactory(ctx)

  const loginPerEmailIp = limiter({ name: 'login-email-ip', limit: settings.loginPerEmailIp, key: emailIpKeyOf })
  // Routes that mail an address: per client, and per address from that client over a minute and
  // an hour. Counting per address alone let anyone keep its owner's own requests at 429.
  const mailing = (name: string, perIp: Limit, perEmailIp: Limit, perEmailIpHourly: Limit) => [
    limiter({ name: `${name}-ip`, limit: perIp, key: ipOf }),
    limiter({ name: `${name}-email-ip`, limit: perEmailIp, key: emailIpKeyOf }),
    limiter({ name: `${name}-email-ip-hour`, limit: perEmailIpHourly, key: emailIpKeyOf }),
  ]
  return {
    login: [limiter({ name: 'login-ip', limit: settings.loginPerIp, key: ipOf, failuresOnly: true }), loginPerEmailIp],
    register: mailing('register', settings.registerPerIp, settings.registerPerEmailIp, settings.registerPerEmailIpHourly),
    forgotPassword: mailing('forgot', settings.mailPerIp, settings.mailPerEmailIp, settings.mailPerEmailIpHourly),
    resendVerification: mailing('resend', settings.mailPerIp, settings.mailPerEmailIp, settings.mailPerEmailIpHourly),
    sessionCreate: [limiter({ name: 'session-ip', limit: settings.sessionCreatePerIp, key: ipOf, skip: (req) => !req.guestSession.enabled || req.guestSession.started })],
    accountPassword: [
      limiter({ name: 'account-password-session', limit: settings.accountPasswordPerSession, key: sessionOf, failuresOnly: true, failed: wrongConfirmation }),
      limiter({ name: 'account-password', limit: settings.accountPasswordPerUser, key: userOf, failuresOnly: true, failed: wrongConfirmation }),
    ],
    emailChange: [limiter({ name: 'email-change', limit: settings.emailChangePerUser, key: userOf })],
    accountWrites: [
      limiter({ name: 'account-write', limit: settings.accountWritesPerUser, key: userOf, skip: (req) => req.method === 'GET' || req.method === 'HEAD' || req.get('Precognition') === 'true' }),
    ],
    clearLoginFailures: async (req) => {
      await loginPerEmailIp.resetKey(emailIpKeyOf(req))
    },
  }
}
