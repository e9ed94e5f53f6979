import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OAuthAccount } from '../src/features/oauth/models/oauth-account.js'
import { OAuthFlow } from '../src/features/oauth/models/oauth-flow.js'
import { SecurityEvent } from '../src/kernel/models/index.js'
import { openIdEnv, providerLogin, signInWith, startProvider, UNLIMITED } from './helpers/oauth.js'
import { linkProvider } from './helpers/oauth-link.js'
import { authorizeAt } from './helpers/oauth-flow.js'
import type { TestOidcProvider } from './helpers/oidc-provider.js'
import { mailTo } from './helpers/mail.js'
import { account, me, within } from './helpers/requests.js'
import { waysInOf } from './helpers/ways-in.js'
import { login, makeUser, PASSWORD, uniqueEmail, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
let provider: TestOidcProvider
let app: TestApp['app']

beforeAll(async () => {
  provider = await startProvider()
  // Both OpenID providers at one issuer: an account can link two providers.
  ;({ app } = await t.build({ env: { ...openIdEnv(provider.issuer), ...openIdEnv(provider.issuer, 'GOOGLE') }, rateLimits: UNLIMITED }))
})
afterAll(() => provider?.close())

const connections = (cookies: Record<string, string>) => ({
  list: () => supertest(app).get('/api/account/connections').set(withCookies(cookies)),
  link: (provider: string) => supertest(app).post(`/api/account/connections/${provider}`).set(withCookies(cookies)),
  unlink: (provider: string) => supertest(app).delete(`/api/account/connections/${provider}`).set(withCookies(cookies)),
})

const newLogin = (email = uniqueEmail('provider')) => providerLogin(provider, { email })

const link = (cookies: Record<string, string>, providerId: string, login: string) => linkProvider(app, cookies, providerId, login)

describe('/api/account/connections', () => {
  it('needs a signed-in user', async () => {
    await supertest(app).get('/api/account/connections').expect(401)
    await supertest(app).post('/api/account/connections/oidc').expect(401)
  })

  it('links a provider to a password account from settings: provider_linked, its notice, then signing in there signs in here', async () => {
    const user = await makeUser({ verified: true })
    const session = await login(app, user.email)
    const loginAtProvider = newLogin(user.email)
    const before = await supertest(app).get('/api/account/connections').set(withCookies(session.cookies)).expect(200)
    expect(before.body).toEqual({ data: [] })

    const linked = await link(session.cookies, 'oidc', loginAtProvider)
    expect(linked.location).toBe('/settings/connections?linked=oidc')
    const list = (await connections(session.cookies).list().expect(200)).body.data
    expect(list).toEqual([{ provider: 'oidc', email: user.email, createdAt: expect.any(String) }])
    expect(await SecurityEvent.count({ where: { userId: user.id, type: 'provider_linked' } })).toBe(1)
    await within(10_000, async () => (await t.mailServer()).received.some((mail) => mailTo(user.email)(mail) && mail.subject === 'A sign-in provider was linked to your account'))

    const signedIn = await signInWith(app, 'oidc', loginAtProvider)
    expect(signedIn.location).toBe('/dashboard')
  })

  it('refuses to link a provider account that belongs to someone else here (already_linked)', async () => {
    const owner = await signInWith(app, 'oidc', newLogin())
    const taken = (await OAuthAccount.findOne({ order: [['id', 'DESC']] }))!
    expect(owner.location).toBe('/dashboard')
    const other = await makeUser({ verified: true })
    const session = await login(app, other.email)
    const result = await link(session.cookies, 'oidc', taken.subject)
    expect(result.location).toBe('/settings/connections?error=already_linked')
    expect(await OAuthAccount.count({ where: { userId: other.id } })).toBe(0)
  })

  it('voids a link under way when the sessions are revoked (a password change)', async () => {
    const user = await makeUser({ verified: true })
    const session = await login(app, user.email)
    const res = await connections(session.cookies).link('oidc').expect(200)
    expect(await OAuthFlow.count({ where: { userId: user.id } })).toBe(1)
    await account(app, session.cookies).changePassword({ current_password: PASSWORD, password: 'another long secret', password_confirmation: 'another long secret' }).expect(200)
    expect(await OAuthFlow.count({ where: { userId: user.id } })).toBe(0)
    const answer = await authorizeAt(res.body.url, newLogin())
    const flowCookie = (res.headers['set-cookie'] as unknown as string[]).map((line) => line.split(';')[0]!).join('; ')
    const back = await supertest(app).get(answer.pathname + answer.search).set('Cookie', flowCookie)
    expect(back.headers.location).toBe('/login?error=oauth_failed')
    expect(await OAuthAccount.count({ where: { userId: user.id } })).toBe(0)
  })

  it('unlinks: 204 and provider_unlinked; an unknown or unlinked provider is 404', async () => {
    const user = await makeUser({ verified: true })
    const session = await login(app, user.email)
    await link(session.cookies, 'oidc', newLogin())
    await connections(session.cookies).unlink('google').expect(404)
    await connections(session.cookies).unlink('oidc').expect(204)
    expect(await OAuthAccount.count({ where: { userId: user.id } })).toBe(0)
    expect(await SecurityEvent.count({ where: { userId: user.id, type: 'provider_unlinked' } })).toBe(1)
    // Unlinking was a revoking event: it ended this session's confirmation too (step-up).
    await connections(session.cookies).unlink('oidc').expect(403)
    await supertest(app).post('/api/account/confirm').set(withCookies(session.cookies)).send({ password: PASSWORD }).expect(200)
    await connections(session.cookies).unlink('oidc').expect(404)
  })

  it('never removes the last way to sign in: 422 for an account with no password and one provider; fine once it has another', async ({ skip }) => {
    const made = await signInWith(app, 'oidc', newLogin())
    const cookies = made.cookies
    if ((await waysInOf((await me(app, cookies).expect(200)).body.user.id as number)) > 1) skip('every account has another way in here')
    const res = await connections(cookies).unlink('oidc').expect(422)
    expect(res.body.errors.provider[0]).toMatch(/only way to sign in/)
    const userId = (await OAuthAccount.findOne({ order: [['id', 'DESC']] }))!.userId

    const googleLogin = newLogin()
    const google = await link(cookies, 'google', googleLogin)
    expect(google.location).toBe('/settings/connections?linked=google')
    await connections(cookies).unlink('oidc').expect(204)
    // That sign-in was oidc's, and ended with it: the account now signs in with google only.
    expect((await me(app, cookies)).status).toBe(401)
    const byGoogle = (await signInWith(app, 'google', googleLogin)).cookies
    await connections(byGoogle).unlink('google').expect(422)
    expect(await OAuthAccount.count({ where: { userId } })).toBe(1)
  })
})

describe('unlinking a provider ends the sessions it signed in', () => {
  it('the provider\'s sign-in gets 401 at once; the password\'s goes on', async () => {
    const user = await makeUser()
    const byPassword = (await login(app, user.email)).cookies
    const providerLogin = newLogin()
    await link(byPassword, 'google', providerLogin)
    const byProvider = (await signInWith(app, 'google', providerLogin)).cookies
    expect((await me(app, byProvider).expect(200)).body.user.id).toBe(user.id)
    await connections(byPassword).unlink('google').expect(204)
    expect((await me(app, byProvider)).status).toBe(401)
    await me(app, byPassword).expect(200)
  })
})

describe('the last way in, under the user\'s row lock (two unlinks at once once left no way in)', () => {
  it('two unlinks at the same moment of an account with no password and two providers: one 204, one 422, one provider left', async ({ skip }) => {
    for (let round = 0; round < 3; round++) {
      const made = await signInWith(app, 'oidc', newLogin())
      await link(made.cookies, 'google', newLogin())
      const userId = (await me(app, made.cookies).expect(200)).body.user.id as number
      if ((await waysInOf(userId)) > 2) skip('every account has another way in here')
      const answers = await Promise.all([connections(made.cookies).unlink('oidc'), connections(made.cookies).unlink('google')])
      expect(answers.map((res) => res.status).sort(), `round ${round}`).toEqual([204, 422])
      expect(await OAuthAccount.count({ where: { userId } }), `round ${round}`).toBe(1)
    }
  })
})
