import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { ClientMetadata, Configuration } from 'oidc-provider'
import { closeServer, startTamperingProxy, type ClientCredentials, type Tamper } from './oidc-tampering.js'
import { freePort } from './processes.js'

export interface ProviderClient {
  clientId: string
  clientSecret: string
  redirectUris: string[]
  /** openid-client 6 authenticates with client_secret_post unless told otherwise, hence the default. */
  tokenEndpointAuthMethod?: 'client_secret_post' | 'client_secret_basic'
}

export interface ProviderAccount {
  email?: string
  email_verified?: boolean
  name?: string
}

export interface TestOidcProvider {
  /** The issuer URL the app is configured with (OAUTH_OIDC_ISSUER / OAUTH_GOOGLE_ISSUER). */
  issuer: string
  /** Registers (or replaces) the account that logging in as `login` yields; its `sub` is `login`. */
  account(login: string, claims: ProviderAccount): void
  close(): Promise<void>
}

/**
 * A real OpenID provider (oidc-provider) with its development sign-in and consent pages, on
 * 127.0.0.1 over plain http. With `tamper`, a proxy in front of it makes it lie in exactly one way:
 * - 'nonce': the authorization request's nonce is swapped, so the ID token's nonce is not the app's;
 * - 'aud': the authorization and the code redemption are done as another client, so the ID token's
 *   audience is not the app;
 * - 'iss': discovery and the callback's `iss` parameter at the proxy name the proxy as issuer, but
 *   the provider signs ID tokens as itself.
 */
export async function startOidcProvider(options: { clients: ProviderClient[]; tamper?: Tamper; port?: number }): Promise<TestOidcProvider> {
  silenceProviderNotices()
  const { default: Provider } = await import('oidc-provider')

  const providerPort = options.port ?? (await freePort())
  const direct = `http://127.0.0.1:${providerPort}`
  const proxyPort = options.tamper ? await freePort() : undefined
  const proxied = proxyPort === undefined ? undefined : `http://127.0.0.1:${proxyPort}`

  const others = new Map<string, ClientCredentials>()
  if (options.tamper === 'aud') {
    for (const client of options.clients) {
      others.set(client.clientId, { clientId: `${client.clientId}-other`, clientSecret: randomBytes(16).toString('base64url') })
    }
  }
  const clients: ClientMetadata[] = options.clients.flatMap((client) => {
    const other = others.get(client.clientId)
    return [client, ...(other ? [{ ...client, ...other }] : [])].map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: c.tokenEndpointAuthMethod ?? 'client_secret_post',
    }))
  })

  const accounts = new Map<string, ProviderAccount>()
  const configuration: Configuration = {
    clients,
    scopes: ['openid', 'email', 'profile'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // By default the ID token leaves out scope-granted claims whenever an access token is issued
    // (they are meant for userinfo); off, the app finds email and name in the ID token itself.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    // For confidential clients too (the default only insists for public ones); S256 is the only method oidc-provider 9 knows.
    pkce: { required: () => true },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, ...(accounts.get(sub) ?? { email: `${sub}@provider.test`, email_verified: true }) }),
    }),
    features: { devInteractions: { enabled: true } },
  }

  // Only 'iss' keeps the provider's own issuer, so the tokens it signs disagree with what the proxy says.
  const provider = new Provider(options.tamper === 'iss' || !proxied ? direct : proxied, configuration)
  // Plain http on 127.0.0.1 needs nothing more: cookies are only marked Secure on https requests,
  // and the provider builds its URLs from the Host header, which the proxy passes through untouched.
  const server = http.createServer(provider.callback())
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(providerPort, '127.0.0.1', resolve)
  })

  const proxy =
    options.tamper && proxyPort !== undefined
      ? await startTamperingProxy({
          tamper: options.tamper,
          port: proxyPort,
          target: providerPort,
          authorizationPath: provider.pathFor('authorization'),
          tokenPath: provider.pathFor('token'),
          others,
        })
      : undefined

  return {
    issuer: proxy?.url ?? direct,
    account(login, claims) {
      accounts.set(login, claims)
    },
    close: async () => {
      await proxy?.close()
      await closeServer(server)
    },
  }
}

let silenced = false

/**
 * oidc-provider announces every development-only default it runs with (in-memory adapter, dev
 * keys, dev interactions, Node 20 being below its supported LTS) on console.warn/info; in tests
 * those are all deliberate, so only its own notices are dropped.
 */
function silenceProviderNotices() {
  if (silenced) return
  silenced = true
  for (const level of ['warn', 'info'] as const) {
    const original = console[level]
    console[level] = (...args: unknown[]) => {
      // eslint-disable-next-line no-control-regex
      if (typeof args[0] === 'string' && /^(\u001b\[[\d;]*m)?oidc-provider (WARNING|NOTICE):/.test(args[0])) return
      original.apply(console, args)
    }
  }
}
