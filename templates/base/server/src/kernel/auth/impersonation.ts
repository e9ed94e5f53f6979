import type { Request, Response } from 'express'
import type { AppContext } from '../context.js'
import { forbidden, unauthenticated } from '../http/errors.js'
import { requestLocale } from '../i18n/request-locale.js'
import { Session } from '../models/index.js'
import { originOf, recordCredentialEvent } from '../security/credential-events.js'
import { events } from '../security/events.js'
import { findUserById, identityOf, serializeUser, type UserJson } from '../services/users.js'
import { clearAuthCookies } from './cookies.js'
import { resumeRefreshFamily, startRefreshFamily } from './refresh-tokens.js'
import { clientOf } from './sessions.js'
import { setTokenCookies } from './sign-in.js'

/** The longest an admin stays signed in as someone else; never longer than the admin's own session either. */
export const IMPERSONATION_MAX_SECONDS = 3600

/**
 * Starts the admin's session as `target`, alongside the admin's own, which it remembers to return
 * to: its cookies replace the admin's in this browser. It is never confirmed (no step-up), lasts an
 * hour at most and no longer than the admin's session, and the user gets the one notice that an
 * admin signed in as them (its row and webhook name the admin).
 */
export async function startImpersonation(req: Request, res: Response, ctx: AppContext, target: UserJson): Promise<void> {
  const admin = req.auth!.id
  const own = await Session.findByPk(req.sessionId!, { attributes: ['expiresAt'] })
  if (!own) throw unauthenticated()
  const lifeSeconds = Math.min(IMPERSONATION_MAX_SECONDS, Math.floor((own.expiresAt.getTime() - Date.now()) / 1000))
  if (lifeSeconds <= 0) throw unauthenticated()
  const origin = originOf(clientOf(req))
  const refresh = await startRefreshFamily(ctx, target.id, false, origin, 'impersonation', { id: admin, sessionId: req.sessionId!, lifeSeconds })
  await recordCredentialEvent(ctx, events.impersonationStarted, target.id, {
    origin,
    sessionId: refresh.row.family,
    impersonatorId: admin,
    meta: { by: admin },
    locale: requestLocale(req),
  })
  await req.guestSession.regenerate()
  setTokenCookies(res, ctx, identityOf(target), refresh)
}

/**
 * Ends the impersonation the request is signed in with, and takes the admin's own session up
 * again: the admin, or null when that session has ended meanwhile (the browser is then signed
 * out). A session that is no impersonation is refused (403).
 */
export async function stopImpersonation(req: Request, res: Response, ctx: AppContext): Promise<UserJson | null> {
  const session = req.impersonatorId === undefined ? null : await Session.findByPk(req.sessionId!, { attributes: ['id', 'userId', 'impersonatorId', 'impersonatorSessionId'] })
  if (!session?.impersonatorId || !session.impersonatorSessionId) throw forbidden()
  await recordCredentialEvent(ctx, events.impersonationEnded, req.auth!.id, { req, revoke: { only: session.id }, meta: { by: session.impersonatorId } })
  const own = await Session.findOne({ where: { id: session.impersonatorSessionId, userId: session.impersonatorId, revokedAt: null }, attributes: ['id', 'userId', 'remember', 'expiresAt'] })
  const admin = own && own.expiresAt.getTime() > Date.now() ? await findUserById(session.impersonatorId) : null
  const refresh = own && admin ? await resumeRefreshFamily(ctx, { id: own.id, userId: admin.id, remember: Boolean(own.remember) }) : null
  await req.guestSession.regenerate()
  if (!admin || !refresh) {
    clearAuthCookies(res, ctx)
    return null
  }
  const json = serializeUser(admin)
  setTokenCookies(res, ctx, identityOf(json), refresh)
  return json
}
