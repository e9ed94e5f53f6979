import type { Request, Response } from 'express'
import * as openid from 'oauth4webapi'
import { z } from 'zod'
import { type AppContext, clearCookie, cookieNamesOf, normaliseEmail, readSignedCookie, setCookie } from '../../../kernel/index.js'
import { config } from '../config.js'
import type { SsoConnection } from '../models/sso-connection.js'
import { oidcProvider } from './oidc-client.js'
import { oidcStates, REQUEST_LIFE_MS } from './saml-ids.js'
import { oidcRedirectUri } from './service-provider.js'

/** What the `{name}_sso_oidc` cookie carries from "Continue with SSO" to the callback. Signed, so the browser cannot change it. */
const flowCookie = z.object({ teamId: z.number().int(), state: z.string(), nonce: z.string(), verifier: z.string() })
type FlowCookie = z.infer<typeof flowCookie>

/** Why an answer was refused, for the log; the browser is told only that it failed. */
export class OidcRefusal extends Error {}

const cookieName = (ctx: AppContext) => cookieNamesOf(config, ctx).ssoOidc

/**
 * The IdP's authorization URL for a new sign-in: code flow with PKCE (S256) against a stolen
 * code, `state` against a forged answer, `nonce` against a replayed ID token. Their values ride
 * in a signed, HttpOnly cookie (SameSite=Lax comes along on the IdP's redirect back), so only
 * this browser can finish it; the state is remembered too, so it finishes once.
 */
export async function startOidc(res: Response, ctx: AppContext, connection: SsoConnection): Promise<string> {
  const { as, client } = await oidcProvider(ctx, connection)
  const cookie: FlowCookie = { teamId: connection.teamId, state: openid.generateRandomState(), nonce: openid.generateRandomNonce(), verifier: openid.generateRandomCodeVerifier() }
  await oidcStates(ctx, connection.teamId).remember(cookie.state)
  setCookie(res, ctx, cookieName(ctx), JSON.stringify(cookie), REQUEST_LIFE_MS / 1000)
  const url = new URL(as.authorization_endpoint!)
  const params = {
    client_id: client.client_id,
    response_type: 'code',
    redirect_uri: oidcRedirectUri(ctx.env.BASE_URL, connection.teamId),
    scope: 'openid email profile',
    state: cookie.state,
    nonce: cookie.nonce,
    code_challenge: await openid.calculatePKCECodeChallenge(cookie.verifier),
    code_challenge_method: 'S256',
  }
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  return url.href
}

function parse(raw: string | null): FlowCookie | null {
  if (!raw) return null
  try {
    const parsed = flowCookie.safeParse(JSON.parse(raw))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** The person the IdP vouches for: an address it has verified, and a name where it gives one. */
export interface OidcPerson {
  email: string
  name: string | null
}

/**
 * The callback's answer, checked: this browser's cookie for this team (used up either way), its
 * state not used before, then the answer and the code exchanged with oauth4webapi, which checks
 * the state, the `iss`, PKCE and the ID token (signature, issuer, audience, expiry, nonce). The address must be
 * verified by the IdP (`email_verified`), from the ID token or else the user info.
 */
export async function finishOidc(req: Request, res: Response, ctx: AppContext, connection: SsoConnection): Promise<OidcPerson> {
  const cookie = parse(readSignedCookie(req, ctx, cookieName(ctx)).value)
  clearCookie(res, ctx, cookieName(ctx))
  if (!cookie) throw new OidcRefusal('no flow cookie, or a forged one: another browser, or too late')
  if (cookie.teamId !== connection.teamId) throw new OidcRefusal("a flow started for another team's connection")
  if (!(await oidcStates(ctx, connection.teamId).take(cookie.state))) throw new OidcRefusal('a used or expired state')

  const currentUrl = new URL(oidcRedirectUri(ctx.env.BASE_URL, connection.teamId))
  currentUrl.search = new URL(req.originalUrl, 'http://callback.invalid').search
  let info: Record<string, unknown>
  // Whatever the IdP answers (an error, a lie, nothing in time) is a refused sign-in, never a 500.
  try {
    const { as, client, auth, http } = await oidcProvider(ctx, connection)
    // The answer's own checks: no error, this flow's state, and the `iss` (RFC 9207) where the IdP sends one.
    const answer = openid.validateAuthResponse(as, client, currentUrl, cookie.state)
    const response = await openid.authorizationCodeGrantRequest(as, client, auth, answer, oidcRedirectUri(ctx.env.BASE_URL, connection.teamId), cookie.verifier, http())
    // The ID token's issuer, audience, expiry and nonce; then its signature, with the IdP's published keys.
    const tokens = await openid.processAuthorizationCodeResponse(as, client, response, { expectedNonce: cookie.nonce, requireIdToken: true })
    await openid.validateApplicationLevelSignature(as, response, http())
    const claims = openid.getValidatedIdTokenClaims(tokens)!
    // OpenID Connect lets an IdP put the address in the ID token or only in the user info.
    info = claims.email === undefined ? await openid.processUserInfoResponse(as, client, claims.sub, await openid.userInfoRequest(as, client, tokens.access_token, http())) : claims
  } catch (error) {
    throw new OidcRefusal(`${String(error)} ${String((error as Error).cause ?? '')}`.trim())
  }
  const email = typeof info.email === 'string' ? normaliseEmail(info.email) : null
  if (!email) throw new OidcRefusal('no email claim')
  // Some IdPs send the flag as a string.
  if (info.email_verified !== true && info.email_verified !== 'true') throw new OidcRefusal('an address the IdP has not verified')
  return { email, name: typeof info.name === 'string' ? info.name : null }
}
