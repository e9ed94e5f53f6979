import * as oidc from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authorization, Browser, consentAndRedeem, discover, followToClient, REDIRECT_URI, registerClient, startProviderApp, toConsentPage, type ProviderApp } from './helpers/oauth-provider.js'
import { login, makeUser, useTestApps } from './helpers/test-app.js'
import { OidcPayload } from '../src/features/identity-provider/models/oidc-payload.js'

const t = useTestApps()

describe('authorization code with PKCE, through the app\'s consent page', () => {
  let app: ProviderApp & { close(): Promise<void> }
  let config: oidc.Configuration
  beforeAll(async () => {
    app = await startProviderApp(t)
    const client = await registerClient(app.app, { name: 'Example CLI', type: 'public', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], scopes: ['openid', 'email', 'profile', 'read', 'write'] })
    config = await discover(app, client)
  })
  afterAll(() => app.close())

  it('signs a person in: consent, the code, an ID token and userinfo with their claims', async () => {
    const user = await makeUser({ name: 'Olivia Example' })
    const { tokens } = await consentAndRedeem(app, config, { scope: 'openid email profile' }, user.email)
    const claims = tokens.claims()!
    expect(claims).toMatchObject({ iss: app.issuer, sub: String(user.id), aud: config.clientMetadata().client_id })
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)
    expect(info).toMatchObject({ sub: String(user.id), email: user.email, email_verified: true, name: 'Olivia Example' })
    expect(tokens.refresh_token).toEqual(expect.any(String))
  })

  it('shows the consent page who asks, for what, for whom; a signed-in person is not asked to sign in', async () => {
    const user = await makeUser({ name: 'Ada Reader' })
    const browser = new Browser(app)
    browser.signIn((await login(app.app, user.email)).cookies)
    const request = await authorization(config, { scope: 'openid email read' })
    const uid = await toConsentPage(browser, request.url)
    const shown = await browser.api('GET', `/api/oauth2/interaction/${uid}`)
    expect(shown.status).toBe(200)
    expect(shown.body).toEqual({ client: { id: config.clientMetadata().client_id, name: 'Example CLI' }, scopes: ['openid', 'email', 'read'], account: { name: 'Ada Reader', email: user.email }, granted: false })
  })

  it('asks once: a person who allowed all of it before is told so, and the page goes on', async () => {
    const user = await makeUser()
    const { browser } = await consentAndRedeem(app, config, { scope: 'openid email' }, user.email)
    const again = await authorization(config, { scope: 'openid' })
    const uid = await toConsentPage(browser, again.url)
    expect((await browser.api('GET', `/api/oauth2/interaction/${uid}`)).body.granted).toBe(true)
    const wider = await authorization(config, { scope: 'openid email profile' })
    const next = await toConsentPage(browser, wider.url)
    expect((await browser.api('GET', `/api/oauth2/interaction/${next}`)).body.granted).toBe(false)
  })

  it('a signed-out browser is refused by the consent API (the page sends it to the login page)', async () => {
    const browser = new Browser(app)
    const request = await authorization(config, { scope: 'openid' })
    const uid = await toConsentPage(browser, request.url)
    const res = await browser.api('GET', `/api/oauth2/interaction/${uid}`)
    expect(res.status).toBe(401)
  })

  it('deny: the client hears access_denied and gets no code', async () => {
    const user = await makeUser()
    const browser = new Browser(app)
    browser.signIn((await login(app.app, user.email)).cookies)
    const request = await authorization(config, { scope: 'openid' })
    const uid = await toConsentPage(browser, request.url)
    const denied = await browser.api('POST', `/api/oauth2/interaction/${uid}/deny`)
    expect(denied.status).toBe(200)
    const back = await followToClient(browser, String(denied.body.redirect))
    expect(back.origin + back.pathname).toBe(REDIRECT_URI)
    expect(back.searchParams.get('error')).toBe('access_denied')
    expect(back.searchParams.get('code')).toBeNull()
    expect(back.searchParams.get('state')).toBe(request.state)
  })

  it('a request begun in another browser cannot be answered from this one (consent phishing)', async () => {
    const attacker = new Browser(app)
    const request = await authorization(config, { scope: 'openid email' })
    const uid = await toConsentPage(attacker, request.url)
    const victim = new Browser(app)
    victim.signIn((await login(app.app, (await makeUser()).email)).cookies)
    expect((await victim.api('GET', `/api/oauth2/interaction/${uid}`)).status).toBe(404)
    expect((await victim.api('POST', `/api/oauth2/interaction/${uid}/consent`)).status).toBe(404)
  })

  it('the consent API is CSRF-checked like every other', async () => {
    const user = await makeUser()
    const browser = new Browser(app)
    browser.signIn((await login(app.app, user.email)).cookies)
    const request = await authorization(config, { scope: 'openid' })
    const uid = await toConsentPage(browser, request.url)
    const res = await browser.fetch(`/api/oauth2/interaction/${uid}/consent`, { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/json' }, body: '{}' })
    expect(res.status).toBe(403)
  })

  it('PKCE is required, and S256 only', async () => {
    const browser = new Browser(app)
    const plain = new URL(config.serverMetadata().authorization_endpoint!)
    plain.search = new URLSearchParams({ client_id: config.clientMetadata().client_id, redirect_uri: REDIRECT_URI, response_type: 'code', scope: 'openid', state: 'x' }).toString()
    const res = await browser.fetch(plain.href)
    const back = new URL(res.headers.get('location')!)
    expect(back.searchParams.get('error')).toBe('invalid_request')
    plain.searchParams.set('code_challenge', 'a'.repeat(43))
    plain.searchParams.set('code_challenge_method', 'plain')
    const second = new URL((await browser.fetch(plain.href)).headers.get('location')!)
    expect(second.searchParams.get('error')).toBe('invalid_request')
  })

  it('redirect URIs match exactly: another one is refused without a redirect (no open redirect)', async () => {
    const browser = new Browser(app)
    const request = await authorization(config, { scope: 'openid', redirect_uri: `${REDIRECT_URI}/../evil` })
    const res = await browser.fetch(request.url.href)
    expect(res.status).toBe(400)
    expect(res.headers.get('location')).toBeNull()
  })

  it('the implicit flow does not exist', async () => {
    const browser = new Browser(app)
    const request = await authorization(config, { scope: 'openid', response_type: 'token' })
    const res = await browser.fetch(request.url.href)
    const location = res.headers.get('location')
    expect(location === null || new URL(location).searchParams.get('error') === 'unsupported_response_type' || new URL(location).hash.includes('unsupported_response_type')).toBe(true)
  })

  it('a code is single-use: redeeming it twice fails, and the grant it made is revoked', async () => {
    const user = await makeUser()
    const browser = new Browser(app)
    browser.signIn((await login(app.app, user.email)).cookies)
    const request = await authorization(config, { scope: 'openid' })
    const uid = await toConsentPage(browser, request.url)
    const consent = await browser.api('POST', `/api/oauth2/interaction/${uid}/consent`)
    const back = await followToClient(browser, String(consent.body.redirect))
    const checks = { pkceCodeVerifier: request.verifier, expectedState: request.state, expectedNonce: request.nonce }
    const first = await oidc.authorizationCodeGrant(config, back, checks)
    await expect(oidc.authorizationCodeGrant(config, back, checks)).rejects.toMatchObject({ error: 'invalid_grant' })
    await expect(oidc.refreshTokenGrant(config, first.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' })
  })

  it('keeps no code or token as it is: rows are keyed by their SHA-256', async () => {
    const user = await makeUser()
    const { tokens } = await consentAndRedeem(app, config, { scope: 'openid' }, user.email)
    const rows = await OidcPayload.findAll({ where: { userId: user.id } })
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(row.id).toMatch(/^[0-9a-f]{64}$/)
      expect(row.payload).not.toContain(tokens.refresh_token!)
      expect(row.payload).not.toContain(tokens.access_token)
    }
  })
})
