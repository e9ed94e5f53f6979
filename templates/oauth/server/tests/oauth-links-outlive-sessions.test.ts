import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OAuthAccount } from '../src/features/oauth/models/oauth-account.js'
import { openIdEnv, providerLogin, signInWith, startProvider, UNLIMITED } from './helpers/oauth.js'
import { linkProvider } from './helpers/oauth-link.js'
import type { TestOidcProvider } from './helpers/oidc-provider.js'
import { linkIn, mailTo } from './helpers/mail.js'
import { login, makeUser, PASSWORD, uniqueEmail, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

// The decision (README, "A link is a way in, not a session"): a linked provider is a way in,
// like the password, not a session. Events that end sessions (a password change, signing out
// everywhere, a reset) leave it; what a stolen session linked is removed where the links are
// listed, and the mails of those events say so.

const t = useTestApps()
let provider: TestOidcProvider
let app: TestApp['app']

beforeAll(async () => {
  provider = await startProvider()
  ;({ app } = await t.build({ env: openIdEnv(provider.issuer), rateLimits: UNLIMITED }))
})
afterAll(() => provider?.close())

const REVIEW = 'Other ways to sign in that were added to your account stay as they are'

describe('a linked provider outlives the events that end sessions', () => {
  it('linked right after a sign-in: a password change, sign-out everywhere and a reset leave it, and their notices point to it', async () => {
    const user = await makeUser({ verified: true })
    const session = await login(app, user.email)
    const atProvider = providerLogin(provider, { email: uniqueEmail('linked') })
    await linkProvider(app, session.cookies, 'oidc', atProvider)
    expect(await OAuthAccount.count({ where: { userId: user.id } })).toBe(1)
    const mail = await t.mailServer()

    const changed = mail.next((each) => mailTo(user.email)(each) && each.subject === 'Your password was changed')
    await supertest(app).put('/api/account/password').set(withCookies(session.cookies)).send({ current_password: PASSWORD, password: 'a new password 2' }).expect(200)
    expect((await changed).body).toContain(REVIEW)
    await supertest(app).post('/api/auth/logout-all').set(withCookies(session.cookies)).expect(204)

    const resetMail = mail.next((each) => mailTo(user.email)(each) && each.subject !== 'Your password was changed')
    await supertest(app).post('/api/auth/forgot-password').send({ email: user.email }).expect(200)
    const link = linkIn(await resetMail, 'reset-password')
    const notice = mail.next((each) => mailTo(user.email)(each) && each.subject === 'Your password was reset')
    await supertest(app).post('/api/auth/reset-password').send({ email: user.email, token: link.token, password: 'a third password 3' }).expect(200)
    expect((await notice).body).toContain(REVIEW)

    expect(await OAuthAccount.count({ where: { userId: user.id } })).toBe(1)
    expect((await signInWith(app, 'oidc', atProvider)).location).toBe('/dashboard')
  })
})
