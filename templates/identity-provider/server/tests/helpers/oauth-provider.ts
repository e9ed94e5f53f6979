import http from 'node:http'
import type { AddressInfo } from 'node:net'
import * as oidc from 'openid-client'
import supertest from 'supertest'
import { login, makeUser, useTestApps, withCookies, type TestApp, type TestAppOptions } from './test-app.js'
import { freePort } from './processes.js'

/** The app listening on a real port, its BASE_URL that port: clients reach the provider as they would. */
export interface ProviderApp extends TestApp {
  base: string
  issuer: string
  /** The API as a resource server (RFC 8707). */
  api: string
}

export async function startProviderApp(t: ReturnType<typeof useTestApps>, options: TestAppOptions = {}): Promise<ProviderApp & { close(): Promise<void> }> {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const built = await t.build({ ...options, env: { BASE_URL: base, ...options.env } })
  const server = http.createServer(built.app)
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  if ((server.address() as AddressInfo).port !== port) throw new Error('the app did not take its port')
  return {
    ...built,
    base,
    issuer: `${base}/oauth2`,
    api: `${base}/api`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export interface RegisteredClient {
  client_id: string
  client_secret?: string
}

/** An admin registers a client through the API (a fresh sign-in is a confirmed session). */
export async function registerClient(app: TestApp['app'], body: object): Promise<RegisteredClient> {
  const admin = await makeUser({ role: 'admin' })
  const { cookies } = await login(app, admin.email)
  const res = await supertest(app).post('/api/admin/oauth-clients').set(withCookies(cookies)).send(body)
  if (res.status !== 201) throw new Error(`client: ${res.status} ${JSON.stringify(res.body)}`)
  return { client_id: res.body.client.client_id, client_secret: res.body.client_secret }
}

export const REDIRECT_URI = 'http://127.0.0.1:8123/callback'

/** openid-client's view of the provider, by discovery: a confidential client authenticates with Basic, a public one with none. */
export async function discover(app: ProviderApp, client: RegisteredClient): Promise<oidc.Configuration> {
  const auth = client.client_secret ? oidc.ClientSecretBasic(client.client_secret) : oidc.None()
  return oidc.discovery(new URL(app.issuer), client.client_id, undefined, auth, { execute: [oidc.allowInsecureRequests] })
}

/** A browser's cookies: every Set-Cookie kept by name (the app's own and the provider's). */
export class Browser {
  readonly cookies: Record<string, string> = {}

  constructor(readonly app: ProviderApp) {}

  signIn(cookies: Record<string, string>) {
    Object.assign(this.cookies, cookies)
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    headers.set('cookie', Object.entries(this.cookies).map(([name, value]) => `${name}=${value}`).join('; '))
    const res = await fetch(new URL(url, this.app.base), { ...init, headers, redirect: 'manual' })
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1)
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) delete this.cookies[name]
      else this.cookies[name] = value
    }
    return res
  }

  /** The consent page's calls, as the page makes them: same origin, the app's cookies. */
  async api(method: 'GET' | 'POST', path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await this.fetch(path, { method, headers: { origin: this.app.base, accept: 'application/json', ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) }, ...(method === 'POST' ? { body: '{}' } : {}) })
    return { status: res.status, body: (await res.json()) as Record<string, unknown> }
  }
}

export interface Authorization {
  url: URL
  verifier: string
  state: string
  nonce?: string
}

/** An authorization request with PKCE (S256), `state` and, for OpenID, `nonce`. */
export async function authorization(config: oidc.Configuration, parameters: Record<string, string>): Promise<Authorization> {
  const verifier = oidc.randomPKCECodeVerifier()
  const state = oidc.randomState()
  const nonce = parameters.scope?.split(' ').includes('openid') ? oidc.randomNonce() : undefined
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...(nonce ? { nonce } : {}),
    ...parameters,
  })
  return { url, verifier, state, nonce }
}

/** The browser follows the authorization request to the consent page: its `uid`. */
export async function toConsentPage(browser: Browser, url: URL): Promise<string> {
  const res = await browser.fetch(url.href)
  const location = res.headers.get('location')
  if (res.status !== 303 || !location) throw new Error(`authorization: ${res.status} ${await res.text()}`)
  const page = new URL(location, browser.app.base)
  if (page.pathname !== '/oauth2/authorize') throw new Error(`not the consent page: ${location}`)
  return page.searchParams.get('uid')!
}

/** Follows the provider's redirects from `url` until one leaves it: the address the client gets back. */
export async function followToClient(browser: Browser, url: string): Promise<URL> {
  let next = new URL(url, browser.app.base)
  for (let hops = 0; hops < 5; hops++) {
    if (!next.href.startsWith(browser.app.base)) return next
    const res = await browser.fetch(next.href)
    const location = res.headers.get('location')
    if (!location) throw new Error(`no redirect from ${next.href}: ${res.status} ${await res.text()}`)
    next = new URL(location, next)
  }
  throw new Error('too many redirects')
}

/** A person signs in, allows the request on the consent page, and the client redeems the code (with `options.DPoP`, bound to its key). */
export async function consentAndRedeem(app: ProviderApp, config: oidc.Configuration, parameters: Record<string, string>, email: string, options?: oidc.DPoPOptions) {
  const browser = new Browser(app)
  browser.signIn((await login(app.app, email)).cookies)
  const request = await authorization(config, parameters)
  const uid = await toConsentPage(browser, request.url)
  const consent = await browser.api('POST', `/api/oauth2/interaction/${uid}/consent`)
  if (consent.status !== 200) throw new Error(`consent: ${consent.status} ${JSON.stringify(consent.body)}`)
  const back = await followToClient(browser, String(consent.body.redirect))
  const tokens = await oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier: request.verifier, expectedState: request.state, expectedNonce: request.nonce }, parameters.resource ? { resource: parameters.resource } : undefined, options)
  return { tokens, browser }
}
