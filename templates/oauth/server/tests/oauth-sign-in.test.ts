import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SecurityEvent, User } from '../src/kernel/models/index.js'
import { OAuthAccount } from '../src/features/oauth/models/oauth-account.js'
import { OAuthFlow } from '../src/features/oauth/models/oauth-flow.js'
import { setCookies, unsign } from './helpers/cookies.js'
import { CLIENT, openIdEnv, providerLogin, redirectUri, signInWith, startProvider, startSignIn, UNLIMITED } from './helpers/oauth.js'
import type { TestOidcProvider } from './helpers/oidc-provider.js'
import { linkIn, mailTo } from './helpers/mail.js'
import { me } from './helpers/requests.js'
import { authConfig, makeUser, names, uniqueEmail, useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
let provider: TestOidcProvider
let app: TestApp['app']

beforeAll(async () => {
  provider = await startProvider()
  ;({ app } = await t.build({ env: openIdEnv(provider.issuer), rateLimits: UNLIMITED }))
})
afterAll(() => provider?.close())

/** A provider account with a fresh subject and address. */
function providerAccount(claims: { email_verified?: boolean } = {}) {
  const email = uniqueEmail('provider')
  return { login: providerLogin(provider, { email, name: 'Ada Provider', ...claims }), email }
}

describe('GET /api/auth/oauth', () => {
  it('lists the configured providers only', async () => {
    const res = await supertest(app).get('/api/auth/oauth').expect(200)
    expect(res.body).toEqual({ data: [{ provider: 'oidc', name: 'Single sign-on' }] })
    const { app: bare } = await t.build()
    expect((await supertest(bare).get('/api/auth/oauth').expect(200)).body).toEqual({ data: [] })
    await supertest(bare).get('/api/auth/oauth/oidc').expect(404)
  })
})

describe('GET /api/auth/oauth/:provider', () => {
  it('sends the browser to the provider with PKCE (S256), state and nonce, which ride in a signed HttpOnly cookie for 600 s', async () => {
    const { url, res } = await startSignIn(app, 'oidc')
    const location = new URL(url)
    expect(location.origin).toBe(new URL(provider.issuer).origin)
    expect(location.searchParams.get('client_id')).toBe(CLIENT.clientId)
    expect(location.searchParams.get('redirect_uri')).toBe(redirectUri('oidc'))
    expect(location.searchParams.get('response_type')).toBe('code')
    expect(location.searchParams.get('code_challenge_method')).toBe('S256')
    expect(location.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(location.searchParams.get('scope')).toBe('openid email profile')
    const cookie = setCookies(res).get(`${authConfig.name}_oauth`)!
    expect(cookie.maxAge).toBe(600)
    expect(cookie.attributes).toMatchObject({ httponly: true, path: '/', samesite: 'Lax' })
    const carried = JSON.parse(unsign(cookie.raw)) as { state: string; nonce: string; verifier: string }
    expect(carried.state).toBe(location.searchParams.get('state'))
    expect(carried.nonce).toBe(location.searchParams.get('nonce'))
    expect(carried.verifier).toMatch(/^[A-Za-z0-9_-]{43,}$/)
    expect(res.headers['cache-control']).toBe('no-store')
  })

  it.each([
    'https://evil.example/',
    '//evil.example/dashboard',
    '/\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    '/dash\nboard',
    'dashboard',
    '/ https://evil.example',
  ])('refuses the redirect %j with a 422 naming it, and starts nothing', async (redirect) => {
    const before = await OAuthFlow.count()
    const res = await supertest(app).get('/api/auth/oauth/oidc').query({ redirect })
    expect(res.status).toBe(422)
    expect(res.body.errors.redirect).toEqual(['The redirect must be a path on this site, such as /dashboard.'])
    expect(await OAuthFlow.count()).toBe(before)
  })

  it('answers 404 for a provider this app does not offer', async () => {
    const res = await supertest(app).get('/api/auth/oauth/facebook').expect(404)
    expect(res.body).toEqual({ message: 'Not Found.' })
  })

  it('is limited per IP (each start stores a flow)', async () => {
    const { app: limited } = await t.build({ env: openIdEnv(provider.issuer), rateLimits: { oauthStartPerIp: { limit: 2, windowMs: 60_000 } } })
    await supertest(limited).get('/api/auth/oauth/oidc').expect(302)
    await supertest(limited).get('/api/auth/oauth/oidc').expect(302)
    const res = await supertest(limited).get('/api/auth/oauth/oidc').expect(429)
    expect(res.headers['retry-after']).toBeDefined()
  })
})

describe('GET /api/auth/oauth/:provider/callback', () => {
  it('creates a user for a new provider account: its address verified, no password, signed in like a password login', async () => {
    const { login, email } = providerAccount()
    const { res, location, cookies } = await signInWith(app, 'oidc', login)
    expect(res.status).toBe(302)
    expect(location).toBe('/dashboard')
    expect(res.headers['cache-control']).toBe('no-store')
    expect(cookies[names().access]).toBeDefined()
    expect(cookies[names().refresh]).toBeDefined()
    expect(cookies[`${authConfig.name}_oauth`]).toBeUndefined()

    const user = (await User.findOne({ where: { email } }))!
    expect(user.name).toBe('Ada Provider')
    expect(user.password).toBeNull()
    expect(user.emailVerifiedAt).toBeInstanceOf(Date)
    const linked = await OAuthAccount.findAll({ where: { userId: user.id } })
    expect(linked.map((row) => [row.provider, row.subject, row.email])).toEqual([['oidc', login, email]])
    const body = (await me(app, cookies).expect(200)).body
    expect(body.user).toMatchObject({ id: user.id, email })
    const signIn = await SecurityEvent.findOne({ where: { userId: user.id, type: 'sign_in' } })
    expect(JSON.parse(signIn!.meta as unknown as string)).toEqual({ method: 'provider' })
  })

  it('signs a known subject in to its user, even after the provider changed the address, and goes to `redirect`', async () => {
    const { login } = providerAccount()
    const first = await signInWith(app, 'oidc', login)
    const userId = (await me(app, first.cookies)).body.user.id as number
    provider.account(login, { email: uniqueEmail('renamed'), email_verified: true })
    const again = await signInWith(app, 'oidc', login, { redirect: '/users?page=2' })
    expect(again.location).toBe('/users?page=2')
    expect((await me(app, again.cookies).expect(200)).body.user.id).toBe(userId)
    expect(await OAuthAccount.count({ where: { subject: login } })).toBe(1)
  })

  it('keeps the session for the "remember me" life with remember=1, and for the browser session without', async () => {
    const remembered = await signInWith(app, 'oidc', providerAccount().login, { remember: '1' })
    expect(remembered.set.get(names().refresh)?.maxAge).toBe(authConfig.refreshRememberExpirySeconds)
    const plain = await signInWith(app, 'oidc', providerAccount().login)
    expect(plain.set.get(names().refresh)?.maxAge).toBe(authConfig.refreshExpirySeconds)
  })

  it('links nothing by e-mail: an account with the address sends the browser to /login?error=account_exists', async () => {
    const owner = await makeUser({ verified: true })
    const login = providerLogin(provider, { email: owner.email.toUpperCase() })
    const { location, cookies } = await signInWith(app, 'oidc', login)
    expect(location).toBe('/login?error=account_exists')
    expect(cookies[names().access]).toBeUndefined()
    expect(await OAuthAccount.count({ where: { subject: login } })).toBe(0)
    expect(await User.count({ where: { email: owner.email } })).toBe(1)
  })

  it('refuses an address the provider does not vouch for: /login?error=email_unverified, no user made', async () => {
    const { login, email } = providerAccount({ email_verified: false })
    const { location, cookies } = await signInWith(app, 'oidc', login)
    expect(location).toBe('/login?error=email_unverified')
    expect(cookies[names().access]).toBeUndefined()
    expect(await User.count({ where: { email } })).toBe(0)
  })

  it('a user made by a provider cannot sign in with a password, and gets the same answer as a wrong password', async () => {
    const { login, email } = providerAccount()
    await signInWith(app, 'oidc', login)
    const res = await supertest(app).post('/api/auth/login').send({ email, password: 'anything at all' }).expect(422)
    expect(res.body.errors.email).toEqual(['These credentials do not match our records.'])
  })

  it('a password reset gives a user made by a provider a password', async () => {
    const { login, email } = providerAccount()
    await signInWith(app, 'oidc', login)
    const waiting = (await t.mailServer()).next(mailTo(email))
    await supertest(app).post('/api/auth/forgot-password').send({ email }).expect(200)
    const link = linkIn(await waiting, 'reset-password')
    await supertest(app).post('/api/auth/reset-password').send({ email: link.email, token: link.token, password: 'a brand new secret' }).expect(200)
    await supertest(app).post('/api/auth/login').send({ email, password: 'a brand new secret' }).expect(200)
  })
})
