import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { linkProvider } from './helpers/oauth-link.js'
import { openIdEnv, providerLogin, signInWith, startProvider } from './helpers/oauth.js'
import type { TestOidcProvider } from './helpers/oidc-provider.js'
import { me } from './helpers/requests.js'
import { answerChallenge, codeFor, withTwoFactor } from './helpers/two-factor.js'
import { authConfig, makeUser, names, useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
let provider: TestOidcProvider
let app: TestApp['app']

beforeAll(async () => {
  provider = await startProvider()
  ;({ app } = await t.build({ env: openIdEnv(provider.issuer) }))
})
afterAll(() => provider?.close())

describe('a provider sign-in of a user with two-factor authentication', () => {
  it('asks for the second factor next, as after a password, and signs in only with the code', async () => {
    const user = await makeUser({ verified: true })
    const { cookies, secret } = await withTwoFactor(app, user.email)
    const login = providerLogin(provider)
    expect((await linkProvider(app, cookies, 'oidc', login)).location).toBe('/settings/connections?linked=oidc')

    const step = await signInWith(app, 'oidc', login, { redirect: '/users', remember: '1' })
    expect(step.location).toBe('/two-factor-challenge?redirect=%2Fusers')
    expect(step.cookies[names().access]).toBeUndefined()
    expect(step.cookies[names().refresh]).toBeUndefined()
    expect(step.cookies[`${authConfig.name}_2fa`]).toBeDefined()
    await me(app, step.cookies).expect(401)

    const res = await answerChallenge(app, step.cookies, { code: await codeFor(secret, 1) })
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ id: user.id })
  })
})
