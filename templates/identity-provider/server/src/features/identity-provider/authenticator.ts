import type { Request } from 'express'
import { createLocalJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose'
import { LRUCache } from 'lru-cache'
import type { AppContext, Authenticator } from '../../kernel/index.js'
import { DPOP_ALGORITHMS, proofHolds } from './services/dpop.js'
import { grantCache, grantKeyOf } from './services/grant-cache.js'
import { providerOf } from './services/provider.js'
import { API_SCOPES, apiResourceOf, issuerOf, resourceMetadataUrlOf } from './services/urls.js'

/** `Bearer <JWT>`, or RFC 9449's `DPoP <JWT>` for a token bound to the client's key. */
const SCHEME = /^(Bearer|DPoP)\s+([\w-]+\.[\w-]+\.[\w-]+)\s*$/i

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
  /** The thumbprint of the key a DPoP-bound token is bound to (`cnf.jkt`). */
  jkt?: string
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
    const jkt = (payload.cnf as { jkt?: unknown } | undefined)?.jkt
    const verified = { userId: Number(payload.sub), clientId: String(payload.client_id), scopes: API_SCOPES.filter((scope) => granted.has(scope)), exp: payload.exp!, ...(typeof jkt === 'string' ? { jkt } : {}) }
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

/** Why a request that said `DPoP` was refused, for its challenge (RFC 9449 §7.1). */
const dpopRefusals = new WeakMap<Request, 'invalid_token' | 'invalid_dpop_proof'>()

/**
 * An access token the app issued as an OAuth provider for its own API (RFC 9068 JWT, audience
 * `{BASE_URL}/api`): its person with its scopes (`read`, `write`). Verified with the provider's
 * own keys, by signature, issuer, audience, type and expiry (once per token: `verify`), and only
 * while the person's grant to the client lives (the kernel's credential cache: a hit costs no
 * query); a token issued to a client for itself (client credentials) names no person and proves
 * nothing here. A token bound to a key (DPoP, RFC 9449) is good only as `DPoP` with a fresh proof
 * of that key on each request, never as a bearer: a thief without the key holds nothing. The
 * kernel keeps it off the account, credential and step-up routes, as an API key.
 */
export const accessTokenAuthenticator: Authenticator<AppContext> = {
  name: 'oauth-access-token',
  securitySchemes: {
    oauth2: {
      type: 'oauth2',
      description: 'An access token this app issued as an OAuth 2.1 provider for its API (`resource` `{BASE_URL}/api`), as `Authorization: Bearer <token>`, or `Authorization: DPoP <token>` with a `DPoP` proof when the token is bound to the client\'s key (RFC 9449): `read` allows GET routes, `write` the others.',
      flows: { authorizationCode: { authorizationUrl: '/oauth2/auth', tokenUrl: '/oauth2/token', scopes: { read: 'Read through the API', write: 'Change through the API' } } },
    },
  },
  challenge(ctx, req) {
    const bearer = `Bearer resource_metadata="${resourceMetadataUrlOf(ctx.env)}"`
    const refused = dpopRefusals.get(req)
    return refused ? `${bearer}, DPoP error="${refused}", algs="${DPOP_ALGORITHMS.join(' ')}"` : bearer
  },
  async authenticate(req, header, ctx) {
    const [, scheme = '', token] = SCHEME.exec(header) ?? []
    if (token === undefined || typeOf(token) !== 'at+jwt') return undefined
    const dpop = scheme.toLowerCase() === 'dpop'
    const verified = await verify(token, ctx)
    // A bound token as a bearer, or an unbound one said to be bound: RFC 9449 §7.1 refuses both.
    if (!verified || dpop !== (verified.jkt !== undefined)) {
      if (dpop || verified?.jkt) dpopRefusals.set(req, 'invalid_token')
      return null
    }
    if (dpop && !(await proofHolds(req, token, verified.jkt!, ctx))) {
      dpopRefusals.set(req, 'invalid_dpop_proof')
      return null
    }
    // Revoked in the person's connected apps, or ended by a revoking event: dead at once.
    if (!(await grantCache(ctx).get(grantKeyOf(verified.userId, verified.clientId)))) return null
    return { userId: verified.userId, scopes: verified.scopes, credentialId: verified.clientId }
  },
}
