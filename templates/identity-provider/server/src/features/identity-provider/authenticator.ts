import { createLocalJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose'
import { LRUCache } from 'lru-cache'
import type { AppContext, Authenticator } from '../../kernel/index.js'
import { grantCache, grantKeyOf } from './services/grant-cache.js'
import { providerOf } from './services/provider.js'
import { API_SCOPES, apiResourceOf, issuerOf, resourceMetadataUrlOf } from './services/urls.js'

const BEARER = /^Bearer\s+([\w-]+\.[\w-]+\.[\w-]+)\s*$/i

const keySets = new WeakMap<AppContext, Promise<JWTVerifyGetKey>>()
const keySetOf = (ctx: AppContext) => {
  let keys = keySets.get(ctx)
  if (!keys) {
    keys = providerOf(ctx).then(({ publicKeys }) => createLocalJWKSet(publicKeys))
    keys.catch(() => keySets.delete(ctx))
    keySets.set(ctx, keys)
  }
  return keys
}

/** What a verified token says, kept by its exact text until it expires. */
interface Verified {
  userId: number
  clientId: string
  scopes: string[]
  /** Epoch seconds. */
  exp: number
}

/**
 * Tokens already verified, by their whole text: a client sends the same token for its ten
 * minutes, and checking an ES256 signature again each time costs more than the rest of the
 * request. Keyed by every byte of the token, so another payload or signature is another key and
 * is verified afresh; its expiry is checked on every use, its grant too (below).
 */
const verifiedTokens = new WeakMap<AppContext, LRUCache<string, Verified>>()
const verifiedOf = (ctx: AppContext) => {
  let cache = verifiedTokens.get(ctx)
  if (!cache) verifiedTokens.set(ctx, (cache = new LRUCache<string, Verified>({ max: 2_000 })))
  return cache
}

async function verify(token: string, ctx: AppContext): Promise<Verified | null> {
  const kept = verifiedOf(ctx).get(token)
  if (kept) return kept.exp > Date.now() / 1000 ? kept : null
  try {
    const { payload } = await jwtVerify(token, await keySetOf(ctx), {
      issuer: issuerOf(ctx.env),
      audience: apiResourceOf(ctx.env),
      typ: 'at+jwt',
      algorithms: ['ES256', 'RS256'],
      requiredClaims: ['sub', 'exp', 'client_id'],
    })
    if (typeof payload.sub !== 'string' || !/^[1-9]\d{0,9}$/.test(payload.sub) || payload.sub === payload.client_id) return null
    const granted = new Set(String(payload.scope ?? '').split(' '))
    const verified = { userId: Number(payload.sub), clientId: String(payload.client_id), scopes: API_SCOPES.filter((scope) => granted.has(scope)), exp: payload.exp! }
    verifiedOf(ctx).set(token, verified)
    return verified
  } catch {
    return null
  }
}

/** The JOSE header's `typ`, as RFC 9068 marks an access token: only such a JWT is ours to judge. */
function typeOf(token: string): string | undefined {
  try {
    const header = JSON.parse(Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('utf8')) as { typ?: unknown }
    return typeof header.typ === 'string' ? header.typ.toLowerCase() : undefined
  } catch {
    return undefined
  }
}

/**
 * An access token the app issued as an OAuth provider for its own API (RFC 9068 JWT, audience
 * `{BASE_URL}/api`): its person with its scopes (`read`, `write`). Verified with the provider's
 * own keys, by signature, issuer, audience, type and expiry (once per token: `verify`), and only
 * while the person's grant to the client lives (the kernel's credential cache: a hit costs no
 * query); a token issued to a
 * client for itself (client credentials) names no person and proves nothing here. The kernel
 * keeps it off the account, credential and step-up routes, as an API key.
 */
export const accessTokenAuthenticator: Authenticator<AppContext> = {
  name: 'oauth-access-token',
  securitySchemes: {
    oauth2: {
      type: 'oauth2',
      description: 'An access token this app issued as an OAuth 2.1 provider for its API (`resource` `{BASE_URL}/api`), as `Authorization: Bearer <token>`: `read` allows GET routes, `write` the others.',
      flows: { authorizationCode: { authorizationUrl: '/oauth2/auth', tokenUrl: '/oauth2/token', scopes: { read: 'Read through the API', write: 'Change through the API' } } },
    },
  },
  challenge: (ctx) => `Bearer resource_metadata="${resourceMetadataUrlOf(ctx.env)}"`,
  async authenticate(_req, header, ctx) {
    const token = BEARER.exec(header)?.[1]
    if (token === undefined || typeOf(token) !== 'at+jwt') return undefined
    const verified = await verify(token, ctx)
    // Revoked in the person's connected apps, or ended by a revoking event: dead at once.
    if (!verified || !(await grantCache(ctx).get(grantKeyOf(verified.userId, verified.clientId)))) return null
    return { userId: verified.userId, scopes: verified.scopes, credentialId: verified.clientId }
  },
}
