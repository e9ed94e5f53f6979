import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jar } from './helpers/cookies.js'
import { callback, openIdEnv, providerLogin, signInWith, startProvider, UNLIMITED } from './helpers/oauth.js'
import { authorizeAt } from './helpers/oauth-flow.js'
import type { TestOidcProvider } from './helpers/oidc-provider.js'
import { me } from './helpers/requests.js'
import { uniqueEmail, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'
import { confirmation as confirmationOf, unconfirm } from './helpers/confirmation.js'

const t = useTestApps()
let provider: TestOidcProvider
let app: TestApp['app']

beforeAll(async () => {
  provider = await startProvider()
  ;({ app } = await t.build({ env: openIdEnv(provider.issuer), rateLimits: UNLIMITED }))
})
afterAll(() => provider?.close())

const newLogin = () => providerLogin(provider, { email: uniqueEmail('provider') })

/** An account made by the provider (no password), whose sign-in's confirmation has run out. */
async function unconfirmedProviderAccount() {
  const login = newLogin()
  const { cookies } = await signInWith(app, 'oidc', login)
  const userId = (await me(app, cookies).expect(200)).body.user.id as number
  await unconfirm(userId)
  return { login, cookies }
}

/** The round trip: start it for this session, sign in at the provider as `login`, hand the answer back. */
async function confirmThrough(cookies: Record<string, string>, login: string, redirect = '/settings/security?tab=1') {
  const start = await supertest(app).post('/api/account/confirm/provider/oidc').set(withCookies(cookies)).send({ redirect })
  expect(start.status, JSON.stringify(start.body)).toBe(200)
  return callback(app, await authorizeAt(start.body.url, login), jar(start, cookies))
}

const confirmation = (cookies: Record<string, string>) => confirmationOf(app, cookies)

describe('confirming it is you with a linked provider', () => {
  it('an account without a password is offered its provider, and is asked before a sensitive action', async () => {
    const { cookies } = await unconfirmedProviderAccount()
    expect((await confirmation(cookies)).body).toEqual({ confirmed_until: null, methods: ['provider:oidc'] })
    const res = await supertest(app).delete('/api/account/sessions').set(withCookies(cookies)).send({ password: 'anything' })
    expect(res.status).toBe(403)
    expect(res.body.errors.confirm).toBeDefined()
  })

  it('a round trip as the linked account confirms, and returns to the page that asked', async () => {
    const { login, cookies } = await unconfirmedProviderAccount()
    const back = await confirmThrough(cookies, login)
    expect(back.location).toBe('/settings/security?tab=1&confirmed=oidc')
    expect((await confirmation(cookies)).body.confirmed_until).not.toBeNull()
    expect((await supertest(app).delete('/api/account/sessions').set(withCookies(cookies)).send({})).status).toBe(204)
  })

  it('a round trip as another provider account confirms nothing (confirm_failed)', async () => {
    const { cookies } = await unconfirmedProviderAccount()
    const back = await confirmThrough(cookies, newLogin())
    expect(back.location).toBe('/settings/security?tab=1&error=confirm_failed')
    expect((await confirmation(cookies)).body.confirmed_until).toBeNull()
  })

  it('a provider that is not linked cannot be used to confirm (404)', async () => {
    const { cookies } = await unconfirmedProviderAccount()
    await supertest(app).post('/api/account/confirm/provider/google').set(withCookies(cookies)).send({}).expect(404)
  })
})
