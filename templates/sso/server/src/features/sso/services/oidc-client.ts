import http from 'node:http'
import https from 'node:https'
import { Readable } from 'node:stream'
import * as openid from 'oauth4webapi'
import { type AppContext, decrypt, encrypt, envOf, hostAddresses, isPublicAddress, pinnedLookup, type ResolvedAddress, type Resolver } from '../../../kernel/index.js'
import { config } from '../config.js'
import type { SsoConnection } from '../models/sso-connection.js'

/** What the app keeps of a team's OpenID provider (`sso_connections.settings`): the secret sealed, never as given. */
export interface OidcSettings {
  issuer: string
  clientId: string
  sealedSecret: string
}

/** A provider as found by discovery, with the app's client at it. */
export interface OidcProvider {
  as: openid.AuthorizationServer
  client: openid.Client
  auth: openid.ClientAuth
  /** Each request's options: a deadline, and plain http only for a loopback issuer (issuerAllowed). */
  http: () => { signal: AbortSignal; [openid.allowInsecureRequests]: boolean; [openid.customFetch]: typeof fetch }
}

type Deps = Pick<AppContext, 'env'> & {
  /** How an IdP's host name resolves: the system's resolver unless a test hands in its own. */
  resolve?: Resolver
}

/** The sealing purpose of client secrets (kernel/security/encryption.ts): theirs alone. */
const PURPOSE = 'sso-oidc-client-secret'

/** The longest an IdP may take to answer one request (discovery, code, keys): a hung IdP must not hold the browser's request. */
const TIMEOUT_MS = 5000

/** How long a discovered provider is reused: an IdP changing its endpoints is seen within this. */
const CACHE_MS = 5 * 60_000

export const sealSecret = (deps: Deps, secret: string) => encrypt(secret, envOf(config, deps.env).ENCRYPTION_KEY, PURPOSE)

export const oidcSettings = (row: SsoConnection): OidcSettings => JSON.parse(row.settings) as OidcSettings

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]']
/** A local IdP, in development and tests: the loopback, never in production. */
const localIdp = (deps: Deps, url: URL) => deps.env.NODE_ENV !== 'production' && LOOPBACK.includes(url.hostname)

/**
 * An issuer the server may fetch: https, or http on the loopback outside production (a local IdP
 * in development and tests). Anything else is refused before a request leaves the app.
 */
export function issuerAllowed(deps: Deps, issuer: string): boolean {
  try {
    const url = new URL(issuer)
    if (url.username || url.password || url.search || url.hash) return false
    if (url.protocol === 'https:') return true
    return url.protocol === 'http:' && localIdp(deps, url)
  } catch {
    return false
  }
}

/**
 * Every request to a team's IdP (discovery, then the endpoints and keys its document names) goes
 * only to public addresses, as a webhook's (OWASP SSRF prevention): a team owner types the issuer,
 * and must not make the server reach this host, the private network or a cloud's metadata service.
 * A name is resolved and all its addresses checked just before the request, which then connects
 * to the first of them, as a webhook's delivery does: a name that answers otherwise a moment later
 * (DNS rebinding) reaches nothing else.
 */
export const publicFetch = (deps: Deps): typeof fetch => async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input))
  if (localIdp(deps, url)) return fetch(input, init)
  const addresses = await hostAddresses(url, deps.resolve)
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) throw new Error(`${url.host} is not a public address: the app fetches no IdP there`)
  return pinnedFetch(addresses[0]!, new Request(input, init))
}

/**
 * `request` sent to `target` alone (the kernel's `pinnedLookup`, whatever the name resolves to
 * now), over node:http(s), as the global fetch takes no lookup of its own. The URL's host name
 * stays the TLS server name the certificate is checked against and the Host header. Redirects
 * are not followed (oauth4webapi asks for none), and the body is sent buffered: a form or nothing.
 */
export async function pinnedFetch(target: ResolvedAddress, request: Request): Promise<Response> {
  const url = new URL(request.url)
  const client = url.protocol === 'https:' ? https : http
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => void (headers[name] = value))
  return new Promise((resolve, reject) => {
    const options = { method: request.method, headers, agent: false, lookup: pinnedLookup(target), signal: request.signal }
    const outgoing = client.request(url, options, (incoming) => {
      try {
        const answered = new Headers()
        for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) answered.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!)
        const status = incoming.statusCode ?? 0
        const empty = request.method === 'HEAD' || [204, 205, 304].includes(status)
        if (empty) incoming.resume()
        resolve(new Response(empty ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>), { status, statusText: incoming.statusMessage ?? '', headers: answered }))
      } catch (error) {
        // A status or header no Response takes (a 600, say) fails the request, instead of throwing in an event handler.
        incoming.destroy()
        reject(error as Error)
      }
    })
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

/**
 * Discovery at the issuer with oauth4webapi, the core openid-client is built on (a package of the
 * sso layer's own: the oauth layer brings openid-client): the metadata's `issuer` must be the URL
 * given. The client authenticates with HTTP Basic, the default of OpenID Connect and of Okta,
 * Entra ID and Google, unless the IdP states it takes only `client_secret_post`.
 */
export async function discover(deps: Deps, issuer: string, clientId: string, secret: string): Promise<OidcProvider> {
  if (!issuerAllowed(deps, issuer)) throw new Error(`issuer not allowed: ${issuer}`)
  const insecure = issuer.startsWith('http:')
  const guarded = publicFetch(deps)
  const http = () => ({ signal: AbortSignal.timeout(TIMEOUT_MS), [openid.allowInsecureRequests]: insecure, [openid.customFetch]: guarded })
  const url = new URL(issuer)
  const as = await openid.processDiscoveryResponse(url, await openid.discoveryRequest(url, { ...http(), algorithm: 'oidc' }))
  if (!as.authorization_endpoint || !as.token_endpoint || !as.jwks_uri) throw new Error('the provider lacks an authorization, token or JWKS endpoint')
  const methods = as.token_endpoint_auth_methods_supported
  const auth = methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post') ? openid.ClientSecretPost(secret) : openid.ClientSecretBasic(secret)
  return { as, client: { client_id: clientId }, auth, http }
}

const discovered = new Map<string, { at: number; provider: Promise<OidcProvider> }>()

/**
 * The team's provider, discovered again after CACHE_MS or once the connection changed; a failed
 * discovery is not kept, so the next sign-in tries afresh.
 */
export function oidcProvider(deps: Deps, row: SsoConnection): Promise<OidcProvider> {
  const key = `${row.id}:${row.updatedAt.getTime()}`
  const cached = discovered.get(key)
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.provider
  const settings = oidcSettings(row)
  const secret = decrypt(settings.sealedSecret, envOf(config, deps.env).ENCRYPTION_KEY, PURPOSE)
  const provider = secret === null ? Promise.reject(new Error('the client secret does not decrypt: was ENCRYPTION_KEY changed?')) : discover(deps, settings.issuer, settings.clientId, secret)
  for (const [other] of discovered) if (other.startsWith(`${row.id}:`)) discovered.delete(other)
  discovered.set(key, { at: Date.now(), provider })
  provider.catch(() => discovered.delete(key))
  return provider
}
