import type { Request, RequestHandler } from 'express'
import type { Options, Store } from 'express-rate-limit'
import { emailKeyOf, envOf, fieldError, ipOf, limitStore, rateLimitsOf, type AppContext } from '../../kernel/index.js'
import { config } from './config.js'
import type { Verifier } from './services/verifier.js'

/** The body field the answer comes in, and the field a refusal names (the client's point reads it too). */
export const FIELD = 'captcha'

/** Refuses a request without a good answer in `captcha`: 422 on that field. */
async function check(req: Request, verify: Verifier): Promise<void> {
  const answer: unknown = (req.body as Record<string, unknown> | undefined)?.[FIELD]
  if (typeof answer !== 'string' || answer === '' || answer.length > 4096) throw fieldError(FIELD, 'captcha.required')
  if (!(await verify(answer, ipOf(req)))) throw fieldError(FIELD, 'captcha.failed')
}

const always =
  (verify: Verifier): RequestHandler =>
  async (req, _res, next) => {
    await check(req, verify)
    next()
  }

/**
 * Login asks for an answer only once an address, or an IP, has failed `captchaLoginFailures`
 * times within its window. An address counts each attempt as a failure before its password is
 * checked (so racing attempts on one account all count), and a sign-in forgives it, as a right
 * password proves its owner is there. An IP counts failures once answered: counted before, the
 * logins in flight together from one office's address asked for a CAPTCHA from the fourth on,
 * right passwords and all. Racing wrong attempts from one IP across addresses are held by the
 * IP's login rate limit instead.
 */
function afterFailures(ctx: AppContext, verify: Verifier): RequestHandler {
  const { limit, windowMs } = rateLimitsOf(config, ctx).captchaLoginFailures
  const store: Store = limitStore(ctx, 'captcha-login-failures')
  // The store's window, as the kernel's own counters are set up (kernel/http/rate-limits.ts).
  void store.init?.({ windowMs } as Options)
  const count = (work: () => unknown) => void Promise.resolve().then(work).catch((error: unknown) => ctx.logger.warn({ err: error }, 'captcha: login failures not counted'))
  return async (req, res, next) => {
    const addressKey = `email:${emailKeyOf(req)}`
    const ipKey = `ip:${ipOf(req)}`
    const [address, ip] = await Promise.all([store.increment(addressKey), store.get?.(ipKey)])
    if (address.totalHits > limit || (ip?.totalHits ?? 0) >= limit) await check(req, verify)
    res.on('finish', () => count(() => (res.statusCode >= 400 ? store.increment(ipKey) : store.resetKey(addressKey))))
    next()
  }
}

/**
 * The actions the layer guards: base's sign-up and reset mail always, login after failures, and
 * the e-mail sign-in request of a layer that has one (by its action's name; absent, unasked).
 */
export function captchaGates(ctx: AppContext, verify: Verifier): Record<string, RequestHandler> {
  if (envOf(config, ctx.env).CAPTCHA_PROVIDER === 'off') return {}
  return { register: always(verify), 'forgot-password': always(verify), 'email-sign-in': always(verify), login: afterFailures(ctx, verify) }
}
