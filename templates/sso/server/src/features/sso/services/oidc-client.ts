import * as client from 'openid-client'
import { type AppContext, decrypt, encrypt, envOf } from '../../../kernel/index.js'
import { config } from '../config.js'
import type { SsoConnection } from '../models/sso-connection.js'

/** What the app keeps of a team's OpenID provider (`sso_connections.settings`): the secret sealed, never as given. */
export interface OidcSettings {
  issuer: string
  clientId: string
  sealedSecret: string
}

type Deps = Pick<AppContext, 'env'>

/** The sealing purpose of client secrets (kernel/security/encryption.ts): theirs alone. */
const PURPOSE = 'sso-oidc-client-secret'

/** The longest an IdP may take to answer one request (discovery, code): a hung IdP must not hold the browser's request. */
const TIMEOUT_SECONDS = 5

/** How long a discovered configuration is reused: an IdP rotating its keys or endpoints is seen within this. */
const CACHE_MS = 5 * 60_000

export const sealSecret = (deps: Deps, secret: string) => encrypt(secret, envOf(config, deps.env).ENCRYPTION_KEY, PURPOSE)

export const oidcSettings = (row: SsoConnection): OidcSettings => JSON.parse(row.settings) as OidcSettings

/**
 * An issuer the server may fetch: https, or http on the loopback outside production (a local IdP
 * in development and tests). Anything else is refused before a request leaves the app.
 */
export function issuerAllowed(deps: Deps, issuer: string): boolean {
  try {
    const url = new URL(issuer)
    if (url.username || url.password || url.search || url.hash) return false
    if (url.protocol === 'https:') return true
    return url.protocol === 'http:' && deps.env.NODE_ENV !== 'production' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
  } catch {
    return false
  }
}

/**
 * Discovery at the issuer, as openid-client does it (the metadata's `issuer` must be the URL given).
 * The client authenticates with HTTP Basic, the default of OpenID Connect and of Okta, Entra ID and
 * Google, unless the IdP states it takes only `client_secret_post`.
 */
export async function discover(deps: Deps, issuer: string, clientId: string, secret: string): Promise<client.Configuration> {
  if (!issuerAllowed(deps, issuer)) throw new Error(`issuer not allowed: ${issuer}`)
  const options = { execute: issuer.startsWith('http:') ? [client.allowInsecureRequests] : [], timeout: TIMEOUT_SECONDS }
  const found = await client.discovery(new URL(issuer), clientId, undefined, client.ClientSecretBasic(secret), options)
  const methods = found.serverMetadata().token_endpoint_auth_methods_supported
  if (methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post')) {
    return client.discovery(new URL(issuer), clientId, undefined, client.ClientSecretPost(secret), options)
  }
  return found
}

const discovered = new Map<string, { at: number; configuration: Promise<client.Configuration> }>()

/**
 * The team's connection as openid-client runs it, discovered again after CACHE_MS or once the
 * connection changed; a failed discovery is not kept, so the next sign-in tries afresh.
 */
export function oidcConfiguration(deps: Deps, row: SsoConnection): Promise<client.Configuration> {
  const key = `${row.id}:${row.updatedAt.getTime()}`
  const cached = discovered.get(key)
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.configuration
  const settings = oidcSettings(row)
  const secret = decrypt(settings.sealedSecret, envOf(config, deps.env).ENCRYPTION_KEY, PURPOSE)
  const configuration = secret === null ? Promise.reject(new Error('the client secret does not decrypt: was ENCRYPTION_KEY changed?')) : discover(deps, settings.issuer, settings.clientId, secret)
  for (const [other] of discovered) if (other.startsWith(`${row.id}:`)) discovered.delete(other)
  discovered.set(key, { at: Date.now(), configuration })
  configuration.catch(() => discovered.delete(key))
  return configuration
}
