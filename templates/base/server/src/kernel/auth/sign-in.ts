import type { Request, Response } from 'express'
import type { AppContext } from '../context.js'
import type { LoginStepAnswer } from '../feature.js'
import type { AuthIdentity } from '../http/request.js'
import { originOf, recordCredentialEvent } from '../security/credential-events.js'
import { events } from '../security/events.js'
import { isNewDevice } from '../security/new-device.js'
import { refuseSuspended, refuseSuspendedSession } from '../security/suspension.js'
import { cookieNames, setCookie } from './cookies.js'
import { startRefreshFamily, type IssuedRefreshToken } from './refresh-tokens.js'
import { clientOf } from './sessions.js'
import { signAccessToken } from './tokens.js'
import type { SignInUser } from '../services/user-json.js'
import { requestLocale } from '../i18n/request-locale.js'
import { fieldError } from '../http/errors.js'

/** An access token for one session (`sid`), so revoking the session ends the token too. */
export function issueAccessCookie(res: Response, ctx: AppContext, identity: AuthIdentity, sessionId: string): string {
  const token = signAccessToken(ctx.keys, identity, ctx.auth.accessExpirySeconds, sessionId)
  setCookie(res, ctx, cookieNames(ctx).access, token, ctx.auth.accessExpirySeconds)
  return token
}

export function setTokenCookies(res: Response, ctx: AppContext, identity: AuthIdentity, refresh: IssuedRefreshToken): string {
  setCookie(res, ctx, cookieNames(ctx).refresh, refresh.token, refresh.maxAge)
  return issueAccessCookie(res, ctx, identity, refresh.row.family)
}

/**
 * Every sign-in (a password, a second factor, and what later layers add), unless a layer refuses
 * this way in for the account (refuseBarredSignIn, below): a new token family,
 * both cookies, a new guest session id, and the `sign_in` event, preceded by `new_device` (and
 * its notice) when the device and network are new to the account. `method` is what the event
 * records; `factor`, the first factor as the session keeps it (`passkey:<id>`, `provider:<name>`,
 * default the method), so that removing that way to sign in ends this session. A suspended
 * account is refused here, whichever way it came, before and again after its session is written
 * (kernel/security/suspension.ts).
 */
export async function signIn(req: Request, res: Response, ctx: AppContext, identity: AuthIdentity, remember: boolean, method = 'password', factor = method): Promise<string> {
  await refuseSignIn(req, ctx, identity, factor)
  // Parsed once: the new-device check and both events read the same device and network.
  const origin = originOf(clientOf(req))
  const [refresh, newDevice] = await Promise.all([
    startRefreshFamily(ctx, identity.id, remember, origin, factor),
    isNewDevice(identity.id, origin.device, origin.network),
  ])
  const sessionId = refresh.row.family
  await refuseSuspendedSession(identity.id, sessionId, requestLocale(req))
  if (newDevice) await recordCredentialEvent(ctx, events.newDevice, identity.id, { origin, sessionId, locale: requestLocale(req) })
  await recordCredentialEvent(ctx, events.signIn, identity.id, { origin, sessionId, meta: { method } })
  await req.guestSession.regenerate()
  return setTokenCookies(res, ctx, identity, refresh)
}

/**
 * The feature layers' login steps, in order, between a first factor (`factor`, as signIn takes
 * it) and a session: the first that takes over (a second factor's challenge) answers instead of a
 * sign-in, and carries the first factor to the session it starts. A suspended account is
 * refused before any step: a second factor would only lead to signIn's refusal.
 */
export async function loginStepAnswer(req: Request, res: Response, ctx: AppContext, user: SignInUser, remember: boolean, factor: string): Promise<LoginStepAnswer | undefined> {
  await refuseSignIn(req, ctx, user.identity, factor)
  for (const feature of ctx.features) {
    const answer = await feature.loginStep?.(req, res, ctx, user, remember, factor)
    if (answer) return answer
  }
  return undefined
}

/**
 * The requests whose account and way in passed the refusals below: a login asks them before its
 * steps, and the sign-in that follows in the same request need not ask the database again.
 */
const cleared = new WeakMap<Request, string>()

/** A suspension, then the layers' refusals of this way in; once per request, account and way in. */
async function refuseSignIn(req: Request, ctx: AppContext, identity: AuthIdentity, factor: string): Promise<void> {
  const key = `${identity.id}|${factor}`
  if (cleared.get(req) === key) return
  await refuseSuspended(identity.id, requestLocale(req))
  await refuseBarredSignIn(ctx, identity, factor)
  cleared.set(req, key)
}

/**
 * The layers' `signInRefusal` (kernel/feature.ts), in order: the first refusal stops the sign-in
 * with 422 on `email`, its message saying which way in to use.
 */
async function refuseBarredSignIn(ctx: AppContext, identity: AuthIdentity, factor: string): Promise<void> {
  for (const feature of ctx.features) {
    const refusal = await feature.signInRefusal?.(ctx, identity, factor)
    if (refusal) throw fieldError('email', refusal)
  }
}
