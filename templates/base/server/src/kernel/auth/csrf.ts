import type { RequestHandler } from 'express'
import type { AppContext } from '../context.js'
import { forbidden } from '../http/errors.js'
import { isFormPost } from '../http/form-posts.js'
import { cookieNames, requestCookies } from './cookies.js'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Origins allowed to send credentialed requests: the app's own and CORS_ORIGINS, nothing else. */
export const trustedOrigins = (ctx: AppContext) => new Set([ctx.env.BASE_ORIGIN, ...ctx.env.CORS_ORIGINS])

/**
 * SameSite=Lax stops most cross-site posts, SameSite=None stops none, so a state-changing
 * request that carries the app's cookies must come from a trusted origin. The browser states it
 * in Origin (or Referer, or at least Sec-Fetch-Site); a request with none of them is not from a
 * browser page and cannot ride on a victim's cookies.
 */
export function csrfGuard(ctx: AppContext): RequestHandler {
  const trusted = trustedOrigins(ctx)
  const names = Object.values(cookieNames(ctx))
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next()
    // A form another site's page posts by design (an identity provider's answer) proves itself by
    // what it carries, a signed message, and acts on no cookie of the app's.
    if (isFormPost(req)) return next()
    // A page of another site cannot add this header without a CORS preflight that only trusted
    // origins pass, and a request with it is judged by it alone (kernel/auth/authenticate.ts).
    if (req.get('authorization') !== undefined) return next()
    const sent = requestCookies(req)
    if (!names.some((name) => sent[name] !== undefined)) return next()

    // Whole origins, scheme and port included (https://host or ws://host is not http://host),
    // and only the configured ones: Host and X-Forwarded-Host are whatever the sender wrote, so
    // an origin that merely matches them proves nothing.
    const allowed = (origin: string) => trusted.has(origin)
    const origin = req.get('origin')
    if (origin !== undefined) {
      if (!allowed(origin)) throw forbidden()
      return next()
    }
    const referer = req.get('referer')
    if (referer !== undefined) {
      if (!allowed(originOf(referer))) throw forbidden()
      return next()
    }
    if (req.get('sec-fetch-site') === 'cross-site') throw forbidden()
    next()
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return 'null'
  }
}
