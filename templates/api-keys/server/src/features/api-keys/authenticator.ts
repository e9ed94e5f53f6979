import { type AppContext, type Authenticator, countRequest } from '../../kernel/index.js'
import { keyCache } from './services/key-cache.js'
import { isOurs, parseKey, secretMatches } from './services/keys.js'
import { noteUse } from './services/last-use.js'

const BEARER = /^Bearer\s+(\S+)\s*$/i

/**
 * `Authorization: Bearer cca_<id>_<secret>`: the key's user with the key's scopes. Another kind of
 * header is not ours (undefined: the next authenticator is asked); a key that is malformed,
 * unknown, revoked, expired or whose secret is wrong proves nothing (null: 401). On a hit of the
 * cache a request costs no query; the kernel then loads the user (a gone one is a 401) and checks
 * the method's scope.
 */
export const apiKeyAuthenticator: Authenticator<AppContext> = {
  name: 'api-key',
  securitySchemes: {
    bearer: {
      type: 'http',
      scheme: 'bearer',
      description: 'An API key (`cca_…`, made under Settings → API keys), as `Authorization: Bearer <key>`: its scopes say what it may do (`read` GET routes, `write` the others, `admin` the admin routes). No cookie is read and no CSRF check is asked.',
    },
  },
  async authenticate(req, header, ctx) {
    const token = BEARER.exec(header)?.[1]
    if (token === undefined || !isOurs(token)) return undefined
    const parsed = parseKey(token)
    if (!parsed) return null
    const keys = keyCache(ctx)
    const entry = keys.cached(parsed.lookupId) ?? (await keys.get(parsed.lookupId))
    if (!entry || !secretMatches(parsed.secret, entry.secretHash)) return null
    if (entry.expiresAt !== null && entry.expiresAt <= Date.now()) return null
    // Counted only once the secret is right: a stranger who knows a key's prefix cannot use up
    // its owner's allowance. By row id, in the limiters' store (shared through Redis).
    await countRequest(req, ctx, { name: 'api-key', limit: ctx.rateLimits.apiKey, key: String(entry.id) })
    noteUse(req, ctx, entry)
    return { userId: entry.userId, scopes: entry.scopes, credentialId: String(entry.id) }
  },
}
