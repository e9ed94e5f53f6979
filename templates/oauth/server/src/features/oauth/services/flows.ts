import type { Request, Response } from 'express'
import * as client from 'openid-client'
import { Op } from 'sequelize'
import { z } from 'zod'
import { oauth } from '../settings.js'
import { type AppContext, clearCookie, cookieNamesOf, hashToken, HttpError, readSignedCookie, setCookie } from '../../../kernel/index.js'
import { config as oauthConfig } from '../config.js'
import { OAuthFlow } from '../models/oauth-flow.js'
import { callbackUrl } from './provider-registry.js'
import type { OAuthProviderSetup } from './providers/types.js'

/** What the `{name}_oauth` cookie carries from the start of a flow to its callback. Signed, so the browser cannot change it. */
const flowCookie = z.object({
  provider: z.string(),
  state: z.string(),
  nonce: z.string().optional(),
  verifier: z.string(),
  redirect: z.string().nullable(),
  remember: z.boolean(),
  /** Confirming it is you (step-up) rather than linking, for the flow's user and session. */
  confirm: z.boolean().optional(),
})
export type FlowCookie = z.infer<typeof flowCookie>

export interface StartOptions {
  redirect: string | null
  remember: boolean
  /** Linking from settings, or confirming it is you: the user, and the session that asked. */
  link?: { userId: number; sessionId: string }
  /** With `link`: the round trip confirms the session instead of linking an account. */
  confirm?: boolean
}

/**
 * The provider's address for this flow: `state` against cross-site answers, PKCE (S256)
 * against a stolen code, `nonce` against a replayed ID token. Their values ride in the signed,
 * HttpOnly cookie for 10 minutes; the hash of `state` is stored, so the answer is good once,
 * at any instance, and a link's dies with its session.
 */
export async function startFlow(res: Response, ctx: AppContext, provider: OAuthProviderSetup, options: StartOptions): Promise<URL> {
  const config = await provider.configuration()
  const cookie: FlowCookie = {
    provider: provider.id,
    state: client.randomState(),
    nonce: provider.openid ? client.randomNonce() : undefined,
    verifier: client.randomPKCECodeVerifier(),
    redirect: options.redirect,
    remember: options.remember,
    ...(options.confirm ? { confirm: true } : {}),
  }
  const now = Date.now()
  // Expired flows are swept on the way, so a table that anyone can add to stays small.
  await OAuthFlow.destroy({ where: { expiresAt: { [Op.lte]: new Date(now) } } })
  await OAuthFlow.create({
    id: hashToken(cookie.state),
    provider: provider.id,
    userId: options.link?.userId ?? null,
    sessionId: options.link?.sessionId ?? null,
    expiresAt: new Date(now + oauth.flowSeconds * 1000),
  })
  setCookie(res, ctx, cookieNamesOf(oauthConfig, ctx).oauth, JSON.stringify(cookie), oauth.flowSeconds)
  return client.buildAuthorizationUrl(config, {
    redirect_uri: callbackUrl(ctx, provider.id),
    scope: provider.scope,
    state: cookie.state,
    ...(cookie.nonce ? { nonce: cookie.nonce } : {}),
    code_challenge: await client.calculatePKCECodeChallenge(cookie.verifier),
    code_challenge_method: 'S256',
  })
}

/** `startFlow` for an answer in JSON (linking, confirming it is you): a provider out of reach is a logged 503. */
export async function flowUrl(res: Response, ctx: AppContext, provider: OAuthProviderSetup, options: StartOptions): Promise<string> {
  const url = await startFlow(res, ctx, provider, options).catch((error: unknown) => {
    ctx.logger.warn({ provider: provider.id, error: String(error) }, 'oauth: provider unavailable')
    throw new HttpError(503, 'errors.serviceUnavailable')
  })
  return url.href
}

/**
 * The flow this callback belongs to, used up (the cookie cleared, the row deleted): null when
 * the cookie is missing, forged, for another provider, or its flow was used, voided or expired.
 */
export async function finishFlow(req: Request, res: Response, ctx: AppContext, providerId: string): Promise<{ cookie: FlowCookie; flow: OAuthFlow } | null> {
  const name = cookieNamesOf(oauthConfig, ctx).oauth
  const raw = readSignedCookie(req, ctx, name).value
  clearCookie(res, ctx, name)
  const cookie = raw ? parse(raw) : null
  if (!cookie || cookie.provider !== providerId) return null
  const where = { id: hashToken(cookie.state), provider: providerId, expiresAt: { [Op.gt]: new Date() } }
  const flow = await OAuthFlow.findOne({ where })
  // Of two requests answering one flow, one deletes it and goes on.
  if (!flow || (await OAuthFlow.destroy({ where })) !== 1) return null
  return { cookie, flow }
}

function parse(raw: string): FlowCookie | null {
  try {
    const parsed = flowCookie.safeParse(JSON.parse(raw))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** The code exchanged, and every check of the answer made by openid-client: state, iss, PKCE, and for OpenID the ID token and its nonce. */
export async function redeem(req: Request, ctx: AppContext, provider: OAuthProviderSetup, cookie: FlowCookie) {
  const config = await provider.configuration()
  const currentUrl = new URL(callbackUrl(ctx, provider.id))
  currentUrl.search = new URL(req.originalUrl, 'http://callback.invalid').search
  const tokens = await client.authorizationCodeGrant(config, currentUrl, {
    pkceCodeVerifier: cookie.verifier,
    expectedState: cookie.state,
    ...(provider.openid ? { expectedNonce: cookie.nonce, idTokenExpected: true } : {}),
  })
  return provider.profile(config, tokens)
}
