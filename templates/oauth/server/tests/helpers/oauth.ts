import type { Express } from 'express'
import supertest from 'supertest'
import { jar, setCookies } from './cookies.js'
import { startOidcProvider, type ProviderAccount, type TestOidcProvider } from './oidc-provider.js'
import type { Tamper } from './oidc-tampering.js'
import { authorizeAt } from './oauth-flow.js'
import { uniqueEmail, withCookies } from './test-app.js'

/** The test apps' BASE_URL, and the redirect URI each provider has registered for them. */
export const BASE_URL = 'http://localhost:3000'
export const redirectUri = (provider: string) => `${BASE_URL}/api/auth/oauth/${provider}/callback`
export const CLIENT = { clientId: 'cookie-auth-app', clientSecret: 'a-client-secret-of-the-test-app' }

/** For files that start and answer many flows from one address; the limits have a test of their own. */
export const UNLIMITED = { oauthStartPerIp: { limit: 10_000, windowMs: 60_000 }, oauthCallbackPerIp: { limit: 10_000, windowMs: 60_000 } }

/** A new account at `provider` (a verified address of its own unless `claims` say otherwise): the login to sign in there with. */
export function providerLogin(provider: TestOidcProvider, claims: ProviderAccount = {}): string {
  const login = `sub-${Math.random().toString(36).slice(2, 10)}`
  provider.account(login, { email: uniqueEmail('provider'), email_verified: true, ...claims })
  return login
}

/** A real OpenID provider with a client for the app's `oidc` and `google` callbacks. */
export const startProvider = (tamper?: Tamper): Promise<TestOidcProvider> =>
  startOidcProvider({ clients: [{ ...CLIENT, redirectUris: [redirectUri('oidc'), redirectUri('google')] }], tamper })

/** The app's environment for `provider` at `issuer` (OpenID providers). */
export const openIdEnv = (issuer: string, provider: 'OIDC' | 'GOOGLE' = 'OIDC') => ({
  [`OAUTH_${provider}_ISSUER`]: issuer,
  [`OAUTH_${provider}_CLIENT_ID`]: CLIENT.clientId,
  [`OAUTH_${provider}_CLIENT_SECRET`]: CLIENT.clientSecret,
})

/** `GET /api/auth/oauth/:provider`: the provider's address and the flow cookie. */
export async function startSignIn(app: Express, provider: string, query: Record<string, string> = {}) {
  const res = await supertest(app).get(`/api/auth/oauth/${provider}`).query(query)
  if (res.status !== 302) throw new Error(`start: ${res.status} ${JSON.stringify(res.body)}`)
  return { url: res.headers.location as string, cookies: jar(res), res }
}

/** The provider's answer handed to the app's callback (the path and query of `callback`), with `cookies`. */
export async function callback(app: Express, callbackUrl: URL, cookies: Record<string, string>) {
  const res = await supertest(app).get(callbackUrl.pathname + callbackUrl.search).set(withCookies(cookies))
  return { res, location: res.headers.location as string | undefined, cookies: jar(res, cookies), set: setCookies(res) }
}

/** A whole sign-in through the provider's own pages as `login`; `finish` (another instance, say) takes the answer. */
export async function signInWith(app: Express, provider: string, login: string, query: Record<string, string> = {}, finish: Express = app) {
  const start = await startSignIn(app, provider, query)
  const answer = await authorizeAt(start.url, login)
  return { ...(await callback(finish, answer, start.cookies)), answer, start }
}
