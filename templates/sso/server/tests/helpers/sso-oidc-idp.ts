import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { Configuration } from 'oidc-provider'
import { freePort } from './processes.js'

export interface IdpAccount {
  email?: string
  email_verified?: boolean
  name?: string
}

export interface SsoOidcIdp {
  issuer: string
  clientId: string
  clientSecret: string
  /** Registers (or replaces) the account that signing in as `login` yields; its `sub` is `login`. */
  account(login: string, claims: IdpAccount): void
  /** From now on, the token endpoint hands out `forge(idToken)` in place of each ID token it signed (null: the real ones again). */
  forgeIdTokens(forge: ((idToken: string) => string) | null): void
  close(): Promise<void>
}

/**
 * A team's OpenID provider: panva's oidc-provider on 127.0.0.1 over plain http, with one
 * confidential client whose only redirect URI is `redirectUri` (the provider refuses any other),
 * PKCE required, client_secret_basic, and its development sign-in and consent pages.
 */
export async function startSsoOidcIdp(redirectUri: string): Promise<SsoOidcIdp> {
  silenceProviderNotices()
  const { default: Provider } = await import('oidc-provider')
  const port = await freePort()
  const issuer = `http://127.0.0.1:${port}`
  const clientId = `team-app-${randomBytes(4).toString('hex')}`
  const clientSecret = randomBytes(24).toString('base64url')
  const accounts = new Map<string, IdpAccount>()
  const configuration: Configuration = {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' }],
    scopes: ['openid', 'email', 'profile'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The address in the ID token itself, as Okta, Entra ID and Google put it there.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    pkce: { required: () => true },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, ...(accounts.get(sub) ?? { email: `${sub}@idp.test`, email_verified: true }) }) }),
    features: { devInteractions: { enabled: true } },
  }
  const provider = new Provider(issuer, configuration)
  let forge: ((idToken: string) => string) | null = null
  // The token endpoint's answer, changed after the provider made it and before it is sent: a lying or compromised IdP.
  provider.use(async (ctx, next) => {
    await next()
    const body = ctx.body as { id_token?: unknown } | undefined
    if (forge && ctx.path === '/token' && typeof body?.id_token === 'string') body.id_token = forge(body.id_token)
  })
  const server = http.createServer(provider.callback())
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  return {
    issuer,
    clientId,
    clientSecret,
    account: (login, claims) => void accounts.set(login, claims),
    forgeIdTokens: (next) => void (forge = next),
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}

/**
 * The person's browser at the IdP: follows the authorization URL, signs in as `login` on the
 * provider's development pages (any password) and consents; answers the URL the IdP sends the
 * browser back to (the app's callback with `code`, `state`, `iss`), not fetched.
 */
export async function authorizeAt(authorizationUrl: string, login: string): Promise<URL> {
  const cookies = new Map<string, string>()
  let step: { method: 'GET' | 'POST'; url: URL; body?: URLSearchParams } = { method: 'GET', url: new URL(authorizationUrl) }
  const origin = step.url.origin
  let signedIn = false
  for (let hops = 0; hops < 20; hops++) {
    const headers = new Headers()
    if (cookies.size > 0) headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '))
    const res = await fetch(step.url, { method: step.method, redirect: 'manual', headers, body: step.body ?? null })
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const eq = pair.indexOf('=')
      const expired = /max-age=0|expires=thu, 01 jan 1970/i.test(line)
      if (eq > 0) expired ? cookies.delete(pair.slice(0, eq)) : cookies.set(pair.slice(0, eq), pair.slice(eq + 1))
    }
    const location = res.headers.get('location')
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel()
      const next = new URL(location, step.url)
      if (next.origin !== origin) return next
      step = { method: 'GET', url: next }
      continue
    }
    const html = await res.text()
    const form = /<form[^>]*action="([^"]*)"[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/i.exec(html)
    const prompt = form?.[2] && /name="prompt" value="([^"]*)"/.exec(form[2])?.[1]
    if (res.status !== 200 || !form?.[1] || !prompt) throw new Error(`unexpected answer from the IdP at ${step.url.href}: ${res.status} ${html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').slice(0, 300)}`)
    const body = prompt === 'login' && !signedIn ? new URLSearchParams({ prompt, login, password: 'any password' }) : new URLSearchParams({ prompt })
    signedIn ||= prompt === 'login'
    step = { method: 'POST', url: new URL(form[1].replace(/&amp;/g, '&'), step.url), body }
  }
  throw new Error('the IdP did not send the browser back within 20 requests')
}

let silenced = false

/** oidc-provider announces each development default it runs with (all deliberate here) on console.warn/info. */
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
