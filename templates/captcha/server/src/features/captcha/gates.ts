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
 * times within its window. Each attempt counts as a failure before the password is checked (so
 * two racing attempts both count), and a sign-in takes it back: the IP's one, and every failure of
 * the address, as a right password proves its owner is there.
 */
function afterFailures(ctx: AppContext, verify: Verifier): RequestHandler {
  const { limit, windowMs } = rateLimitsOf(config, ctx).captchaLoginFailures
  const store: Store = limitStore(ctx, 'captcha-login-failures')
  // The store's window, as the kernel's own counters are set up (kernel/http/rate-limits.ts).
  void store.init?.({ windowMs } as Options)
  return async (req, res, next) => {
    const addressKey = `email:${emailKeyOf(req)}`
    const ipKey = `ip:${ipOf(req)}`
    const [address, ip] = await Promise.all([store.increment(addressKey), store.increment(ipKey)])
    if (address.totalHits > limit || ip.totalHits > limit) await check(req, verify)
    res.on('finish', () => {
      if (res.statusCode >= 400) return
      void Promise.all([store.resetKey(addressKey), store.decrement(ipKey)]).catch((error: unknown) => ctx.logger.warn({ err: error }, 'captcha: login failures not taken back'))
    })
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
