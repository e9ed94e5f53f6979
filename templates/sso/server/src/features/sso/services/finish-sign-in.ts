import type { Request, Response } from 'express'
import { type AppContext, loginStepAnswer, recordCredentialEvent, signIn } from '../../../kernel/index.js'
import { ssoEvents } from '../events.js'
import { ssoFactor } from './require-sso.js'
import type { SsoOutcome } from './sso-accounts.js'

/** Where a browser goes when the IdP's answer signs nobody in: the login page explains `sso=failed`. */
export const SSO_FAILED = '/login?sso=failed'

/**
 * The end of every SSO sign-in, SAML's or OpenID's, once the team's IdP vouched for a person: the
 * event, then the second factor where the account has one (as after a password), else the
 * session, and the browser sent on.
 */
export async function finishSsoSignIn(req: Request, res: Response, ctx: AppContext, teamId: number, outcome: Extract<SsoOutcome, { user: unknown }>): Promise<void> {
  await recordCredentialEvent(ctx, ssoEvents.signedIn, outcome.user.identity.id, { req, meta: { teamId, created: outcome.created } })
  const factor = ssoFactor(teamId)
  const step = await loginStepAnswer(req, res, ctx, outcome.user, false, factor)
  if (step) return res.redirect(303, step.page)
  await signIn(req, res, ctx, outcome.user.identity, false, 'sso', factor)
  res.redirect(303, '/')
}
