import { hkdfSync } from 'node:crypto'
import type { Configuration, default as Provider, KoaContextWithOIDC } from 'oidc-provider'
import { type AppContext, cookieNamesOf, envOf, User } from '../../../kernel/index.js'
import { config } from '../config.js'
import { sequelizeAdapter } from './adapter.js'
import { clientCache, registerClient } from './client-cache.js'
import { API_SCOPES_METADATA } from './client-metadata.js'
import { newClientId, secretMatches } from './client-secrets.js'
import { loadSigningKeys, type PrivateJwk } from './signing-keys.js'
import { codePage, confirmPage, donePage, escape } from './device-pages.js'
import { DPOP_ALGORITHMS } from './dpop.js'
import { API_SCOPES, apiResourceOf, consentPageOf, devicePageOf, issuerOf, OPENID_SCOPES } from './urls.js'

export interface ProviderOfApp {
  provider: Provider
  /** The provider as an Express handler, mounted under /oauth2 (routes.ts). */
  handle: ReturnType<Provider['callback']>
  /** The public halves of the keys it signs with and still publishes: what the API verifies its tokens by. */
  publicKeys: { keys: JsonWebKeyWithKid[] }
}

type JsonWebKeyWithKid = Omit<PrivateJwk, 'd' | 'p' | 'q' | 'dp' | 'dq' | 'qi'>

/** Seconds: the access tokens of the API live as briefly as the app's own. */
const ACCESS_TOKEN_SECONDS = 600

const built = new WeakMap<AppContext, Promise<ProviderOfApp>>()

/**
 * The app's oidc-provider, made on first use (its library loads then, not at start-up) with the
 * signing keys of the database, one per app context.
 */
export function providerOf(ctx: AppContext): Promise<ProviderOfApp> {
  let made = built.get(ctx)
  if (!made) {
    made = build(ctx)
    // A failure (the database down) is not kept: the next request tries again.
    made.catch(() => built.delete(ctx))
    built.set(ctx, made)
  }
  return made
}

async function build(ctx: AppContext): Promise<ProviderOfApp> {
  const { default: Provider, errors, interactionPolicy } = await import('oidc-provider')
  const env = envOf(config, ctx.env)
  const keys = await loadSigningKeys(env.ENCRYPTION_KEY, (message) => ctx.logger.error(message))
  const apiResource = apiResourceOf(env)
  const names = cookieNamesOf(config, ctx)

  // Every authorization request goes through the app's own sign-in: the consent page asks the
  // app's session, never the provider's cookie alone, so signing out of the app (or any revoking
  // event) leaves nothing at the provider that signs the person in.
  const policy = interactionPolicy.base()
  policy.get('login')!.checks.push(
    new interactionPolicy.Check('app_sign_in', 'the app signs the person in', 'login_required', (oidc: KoaContextWithOIDC) =>
      oidc.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
    ),
  )

  const configuration: Configuration = {
    adapter: sequelizeAdapter(env.ENCRYPTION_KEY, () => new errors.InvalidGrant('grant request is invalid'), {
      get: (clientId) => clientCache(ctx).get(clientId),
      register: (clientId, metadata) => registerClient(clientId, metadata, (description) => new errors.InvalidClientMetadata(description)),
    }, ctx.redis ? { redis: ctx.redis, prefix: ctx.keyPrefix } : null),
    jwks: { keys },
    async findAccount(_oidc, sub) {
      const user = /^[1-9]\d{0,9}$/.test(sub) ? await User.findByPk(Number(sub)) : null
      if (!user) return undefined
      return {
        accountId: sub,
        claims: () => ({ sub, email: user.email, email_verified: user.emailVerifiedAt !== null, name: user.name, updated_at: Math.floor(user.updatedAt.getTime() / 1000) }),
      }
    },
    extraClientMetadata: { properties: [API_SCOPES_METADATA] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'updated_at'] },
    scopes: [...OPENID_SCOPES],
    // The authorization code flow alone: no implicit or hybrid answer, and no password grant exists.
    responseTypes: ['code'],
    // For every client, confidential ones too (the default insists for public ones only); oidc-provider 9 knows S256 alone.
    pkce: { required: () => true },
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    clientDefaults: { grant_types: ['authorization_code'], id_token_signed_response_alg: 'ES256', response_types: ['code'], token_endpoint_auth_method: 'none' },
    // Asymmetric only: a client's secret is kept as a hash, so nothing can be signed with it.
    enabledJWA: { idTokenSigningAlgValues: ['ES256', 'RS256'], userinfoSigningAlgValues: ['ES256', 'RS256'], introspectionSigningAlgValues: ['ES256', 'RS256'], dPoPSigningAlgValues: [...DPOP_ALGORITHMS] },
    cookies: {
      keys: [Buffer.from(hkdfSync('sha256', ctx.env.COOKIE_SECRET, '', 'oauth-provider-cookies', 32)).toString('base64url')],
      names: { session: names.oidcSession, interaction: names.oidcInteraction, resume: `${ctx.auth.name}_oidc_resume` },
      // The interaction's cookie goes to the consent page's API too (`/api/oauth2/…`), which
      // checks it: a person can only answer the request their own browser began.
      short: { httpOnly: true, sameSite: 'lax', signed: true, path: '/' },
      long: { httpOnly: true, sameSite: 'lax', signed: true },
    },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      // RFC 9449: a client that sends a DPoP proof gets tokens bound to its key (`cnf.jkt`, and
      // for a public client its refresh token too); the API asks a proof with each (authenticator.ts).
      dPoP: { enabled: true },
      // RFC 7591, for MCP clients and agents: off unless OAUTH_PROVIDER_REGISTRATION=open, public
      // clients only (services/client-cache.ts registerClient), no management afterwards.
      registration: { enabled: env.OAUTH_PROVIDER_REGISTRATION === 'open', initialAccessToken: false, issueRegistrationAccessToken: false, idFactory: () => newClientId() },
      // RFC 8628: a CLI or a TV shows a code, the person types it on the app's /device page.
      // Eight letters without vowels (no words, no look-alikes), shown as XXXX-XXXX.
      deviceFlow: { enabled: true, charset: 'base-20', mask: '****-****', userCodeInputSource: codePage(env), userCodeConfirmSource: confirmPage, successSource: donePage },
      introspection: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // A request for the API's scopes names the API, whether or not it says `resource`.
        defaultResource: (oidc, _client, oneOf) => oneOf ?? (String(oidc.oidc.params?.scope ?? '').split(' ').some((scope) => (API_SCOPES as readonly string[]).includes(scope)) ? apiResource : undefined),
        // The API's scopes this client may have: what a token for the API can carry at most.
        getResourceServerInfo: (_oidc, indicator, client) => {
          if (indicator !== apiResource) throw new errors.InvalidTarget()
          const allowed = String(client.metadata()[API_SCOPES_METADATA] ?? '')
          return { scope: allowed, audience: apiResource, accessTokenTTL: ACCESS_TOKEN_SECONDS, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } }
        },
      },
    },
    interactions: { url: (_oidc, interaction) => consentPageOf(env, interaction.uid), policy },
    issueRefreshToken: async (_oidc, client) => client.grantTypeAllowed('refresh_token'),
    // Every use of a refresh token replaces it; presenting a used one again revokes the whole grant.
    rotateRefreshToken: true,
    ttl: {
      AccessToken: ACCESS_TOKEN_SECONDS,
      AuthorizationCode: 60,
      ClientCredentials: ACCESS_TOKEN_SECONDS,
      IdToken: 3600,
      Interaction: 600,
      DeviceCode: 600,
      Session: 86_400,
      Grant: 365 * 86_400,
      RefreshToken: 30 * 86_400,
    },
    async renderError(oidc, out) {
      oidc.type = 'html'
      oidc.body = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Sign-in failed</title></head><body><h1>Sign-in failed</h1><p>${escape(String(out.error_description ?? out.error ?? ''))}</p></body></html>`
    },
  }

  const provider = new Provider(issuerOf(env), configuration)
  // Behind a proxy the provider sees https and the client's address as the app does.
  provider.proxy = ctx.env.TRUST_PROXY !== undefined
  // Client secrets are kept hashed (services/client-secrets.ts); oidc-provider lets this comparison be replaced.
  provider.Client.prototype.compareClientSecret = function (this: { clientSecret?: string }, presented: string) {
    return secretMatches(presented, this.clientSecret)
  }
  // The code is typed on the app's own page, not the provider's: the device is told that address.
  provider.use(async (koa, next) => {
    await next()
    const body = koa.body as { user_code?: unknown; verification_uri?: string } | undefined
    if (koa.oidc?.route === 'device_authorization' && koa.status === 200 && typeof body?.user_code === 'string') {
      const page = devicePageOf(ctx.env)
      koa.body = { ...body, verification_uri: page, verification_uri_complete: `${page}?${new URLSearchParams({ user_code: body.user_code })}` }
    }
  })
  provider.on('server_error', (_oidc, error) => ctx.logger.error({ err: error }, 'oauth provider error'))
  const publicKeys = { keys: keys.map(({ d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...key }) => key) }
  return { provider, handle: provider.callback(), publicKeys }
}

