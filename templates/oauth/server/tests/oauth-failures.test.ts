import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OAuthAccount } from '../src/features/oauth/models/oauth-account.js'
import { OAuthFlow } from '../src/features/oauth/models/oauth-flow.js'
import { sign, unsign } from './helpers/cookies.js'
import { callback, openIdEnv, providerLogin, signInWith, startProvider, startSignIn, UNLIMITED } from './helpers/oauth.js'
import { authorizeAt, denyAt } from './helpers/oauth-flow.js'
import type { TestOidcProvider } from './helpers/oidc-provider.js'
import type { Tamper } from './helpers/oidc-tampering.js'
import { me } from './helpers/requests.js'
import { authConfig, names, useTestApps, type TestApp } from './helpers/test-app.js'

// Every failure ends the same way: back to the login page with oauth_failed, nothing signed in or made.
const t = useTestApps()
const flowCookie = `${authConfig.name}_oauth`
let provider: TestOidcProvider
let app: TestApp['app']

beforeAll(async () => {
  provider = await startProvider()
  ;({ app } = await t.build({ env: openIdEnv(provider.issuer), rateLimits: UNLIMITED }))
})
afterAll(() => provider?.close())

const newLogin = (target: TestOidcProvider = provider) => providerLogin(target)

async function expectFailed(result: Awaited<ReturnType<typeof callback>>, login?: string) {
  expect(result.res.status).toBe(302)
  expect(result.location).toBe('/login?error=oauth_failed')
  expect(result.cookies[names().access]).toBeUndefined()
  expect(result.cookies[names().refresh]).toBeUndefined()
  if (login) expect(await OAuthAccount.count({ where: { subject: login } })).toBe(0)
}

describe('a callback that does not belong to its flow', () => {
  it('refuses a wrong state', async () => {
    const login = newLogin()
    const start = await startSignIn(app, 'oidc')
    const answer = await authorizeAt(start.url, login)
    answer.searchParams.set('state', 'a-state-of-someone-else')
    await expectFailed(await callback(app, answer, start.cookies), login)
  })

  it('refuses an answer without the flow cookie (another browser), and one with a forged cookie', async () => {
    const login = newLogin()
    const start = await startSignIn(app, 'oidc')
    const answer = await authorizeAt(start.url, login)
    await expectFailed(await callback(app, answer, {}), login)
    const payload = unsign(start.cookies[flowCookie]!)
    await expectFailed(await callback(app, answer, { [flowCookie]: sign(payload, 'not-the-cookie-secret-of-this-app-at-all') }), login)
  })

  it('refuses a flow started for another provider', async () => {
    const start = await startSignIn(app, 'oidc')
    const res = await supertest(app).get('/api/auth/oauth/oidc/callback?code=x&state=y').set('Cookie', `${flowCookie}=${start.cookies[flowCookie]!.replace('oidc', 'google')}`)
    expect(res.headers.location).toBe('/login?error=oauth_failed')
  })

  it('uses a flow once: the same answer replayed (a replayed code) signs nothing in', async () => {
    const login = newLogin()
    const start = await startSignIn(app, 'oidc')
    const answer = await authorizeAt(start.url, login)
    const first = await callback(app, answer, start.cookies)
    expect(first.location).toBe('/dashboard')
    await expectFailed(await callback(app, answer, start.cookies))
    expect(await OAuthFlow.count({ where: { provider: 'oidc', userId: null } })).toBeGreaterThanOrEqual(0)
  })

  it('refuses a code the provider already redeemed, even with a fresh flow of the same browser', async () => {
    const login = newLogin()
    const first = await signInWith(app, 'oidc', login)
    expect(first.location).toBe('/dashboard')
    // A second flow, answered with the first flow's code: the state does not match it, and the provider would refuse the code.
    const second = await startSignIn(app, 'oidc')
    const replay = new URL(first.answer)
    replay.searchParams.set('state', new URL(second.url).searchParams.get('state')!)
    await expectFailed(await callback(app, replay, second.cookies))
  })

  it('refuses an expired flow', async () => {
    const login = newLogin()
    const start = await startSignIn(app, 'oidc')
    const answer = await authorizeAt(start.url, login)
    await OAuthFlow.update({ expiresAt: new Date(Date.now() - 1000) }, { where: {} })
    await expectFailed(await callback(app, answer, start.cookies), login)
  })

  it('goes back to the login page when the user cancels at the provider (its error answer)', async () => {
    const start = await startSignIn(app, 'oidc')
    const answer = await denyAt(start.url)
    expect(answer.searchParams.get('error')).toBe('access_denied')
    await expectFailed(await callback(app, answer, start.cookies))
  })
})

describe.each<Tamper>(['nonce', 'iss', 'aud'])('a provider answering with a wrong %s', (tamper) => {
  let rogue: TestOidcProvider
  let rogueApp: TestApp['app']
  let logger: Awaited<ReturnType<typeof t.build>>['logger']
  beforeAll(async () => {
    rogue = await startProvider(tamper)
    ;({ app: rogueApp, logger } = await t.build({ env: openIdEnv(rogue.issuer), rateLimits: UNLIMITED }))
  })
  afterAll(() => rogue?.close())

  it('is refused by the ID token checks: nothing signed in, nobody made', async () => {
    const login = newLogin(rogue)
    const result = await signInWith(rogueApp, 'oidc', login)
    await expectFailed(result, login)
    // Refused by the check of that very claim, not by something before it.
    const refusal = logger.records().find((record) => record.msg === 'oauth: provider answer refused')
    expect(String(refusal?.cause)).toMatch(new RegExp(`"${tamper}"`))
  })
})

describe('two instances', () => {
  it('finish each other\'s flows: started on one, the answer lands on the other', async () => {
    const { app: other } = await t.build({ env: openIdEnv(provider.issuer), rateLimits: UNLIMITED })
    const login = newLogin()
    const result = await signInWith(app, 'oidc', login, {}, other)
    expect(result.location).toBe('/dashboard')
    await me(app, result.cookies).expect(200)
    // And once only, whichever instance the replay reaches.
    await expectFailed(await callback(app, result.answer, result.start.cookies))
  })
})

describe('a provider that does not answer', () => {
  it('sends the browser back with provider_unavailable, within the timeout', async () => {
    const { app: offline } = await t.build({ env: openIdEnv('http://127.0.0.1:9/'), rateLimits: UNLIMITED })
    const res = await supertest(offline).get('/api/auth/oauth/oidc').expect(302)
    expect(res.headers.location).toBe('/login?error=provider_unavailable')
  })
})
