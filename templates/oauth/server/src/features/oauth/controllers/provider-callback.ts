import type { Request, Response, RequestHandler } from 'express'
import { oauth } from '../settings.js'
import { type AppContext, confirmSession, loginStepAnswer, notFound, Session, signIn } from '../../../kernel/index.js'
import { OAuthAccount } from '../models/oauth-account.js'
import type { OAuthFlow } from '../models/oauth-flow.js'
import { accountFor } from '../services/accounts.js'
import { finishFlow, redeem, type FlowCookie } from '../services/flows.js'
import { linkAccount } from '../services/links.js'
import { findProvider } from '../services/provider-registry.js'
import type { OAuthProviderSetup, ProviderProfile } from '../services/providers/types.js'
import { withRedirect } from '../services/redirects.js'
import { withError, withParams } from './answers.js'

/**
 * `GET /api/auth/oauth/:provider/callback`: the provider's answer, for a sign-in, a link from
 * settings, or confirming it is you. Whatever fails (no or a forged cookie, a used or voided flow, a wrong state,
 * code, iss, aud or nonce, an error from the provider) sends the browser back with
 * `oauth_failed` and nothing signed in or linked; which check failed goes to the log.
 */
export function providerCallback(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const provider = findProvider(ctx, req.params.provider)
    if (!provider) throw notFound()
    res.set('Cache-Control', 'no-store')
    const started = await finishFlow(req, res, ctx, provider.id)
    const linking = started?.flow.userId != null
    const confirming = linking && started?.cookie.confirm === true
    const back = confirming ? (started.cookie.redirect ?? oauth.settingsPath) : linking ? oauth.settingsPath : '/login'
    if (!started) return res.redirect(302, withError(back, 'oauth_failed'))

    let profile: ProviderProfile
    try {
      profile = await redeem(req, ctx, provider, started.cookie)
    } catch (error) {
      ctx.logger.warn({ provider: provider.id, error: String(error), cause: String((error as Error).cause ?? '') }, 'oauth: provider answer refused')
      return res.redirect(302, withError(back, confirming ? 'confirm_failed' : 'oauth_failed'))
    }
    if (confirming) return finishConfirmation(res, ctx, provider, started.flow, profile, back)
    if (linking) return finishLink(req, res, ctx, provider, started.flow, profile)
    return finishSignIn(req, res, ctx, provider, started.cookie, profile)
  }
}

async function finishSignIn(req: Request, res: Response, ctx: AppContext, provider: OAuthProviderSetup, cookie: FlowCookie, profile: ProviderProfile) {
  const outcome = await accountFor(ctx, provider.id, profile)
  if ('error' in outcome) return res.redirect(302, withError('/login', outcome.error))
  // A user with a second factor passes it next, as after a password.
  // Unlinking this provider ends the sessions it signed in.
  const factor = `provider:${provider.id}`
  const step = await loginStepAnswer(req, res, ctx, outcome.user, cookie.remember, factor)
  if (step) return res.redirect(302, withRedirect(step.page, cookie.redirect))
  await signIn(req, res, ctx, outcome.user.identity, cookie.remember, 'provider', factor)
  res.redirect(302, cookie.redirect ?? oauth.defaultRedirect)
}

/** Step-up by a round trip: only the account linked to this user, for a session still signed in, confirms it. */
async function finishConfirmation(res: Response, ctx: AppContext, provider: OAuthProviderSetup, flow: OAuthFlow, profile: ProviderProfile, back: string) {
  const linked = await OAuthAccount.count({ where: { userId: flow.userId!, provider: provider.id, subject: profile.subject } })
  const confirmed = linked > 0 && (await confirmSession(ctx, flow.userId!, flow.sessionId!)) !== null
  res.redirect(302, confirmed ? withParams(back, { confirmed: provider.id }) : withError(back, 'confirm_failed'))
}

async function finishLink(req: Request, res: Response, ctx: AppContext, provider: OAuthProviderSetup, flow: OAuthFlow, profile: ProviderProfile) {
  // The session that asked must still be signed in: a link outlives no sign-out.
  const session = await Session.findByPk(flow.sessionId!, { attributes: ['userId', 'revokedAt', 'expiresAt'] })
  if (!session || session.userId !== flow.userId || session.revokedAt || session.expiresAt.getTime() <= Date.now()) {
    return res.redirect(302, withError(oauth.settingsPath, 'oauth_failed'))
  }
  const linked = await linkAccount(ctx, req, flow.userId!, provider.id, profile)
  res.redirect(302, linked ? `${oauth.settingsPath}?linked=${provider.id}` : withError(oauth.settingsPath, 'already_linked'))
}
