import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SoftwareAuthenticator } from './helpers/authenticator.js'
import { openIdEnv, providerLogin, signInWith, startProvider } from './helpers/oauth.js'
import type { TestOidcProvider } from './helpers/oidc-provider.js'
import { ORIGIN, passkeyApi, RP_ID, signInWithPasskey } from './helpers/passkeys.js'
import { jar } from './helpers/cookies.js'
import { me } from './helpers/requests.js'
import { useTestApps, withCookies, type TestApp } from './helpers/test-app.js'
import { unconfirm } from './helpers/confirmation.js'
import { waysInOf } from './helpers/ways-in.js'

const t = useTestApps()
let provider: TestOidcProvider
let app: TestApp['app']

beforeAll(async () => {
  provider = await startProvider()
  ;({ app } = await t.build({ env: openIdEnv(provider.issuer) }))
})
afterAll(() => provider?.close())

describe('passkeys of an account made by a provider (no password)', () => {
  it('adds one without a password right after signing in, then the provider can go, but not the last passkey', async ({ skip }) => {
    const { cookies } = await signInWith(app, 'oidc', providerLogin(provider))
    const api = passkeyApi(app, cookies)

    const options = await api.options({})
    expect(options.status).toBe(200)
    const authenticator = new SoftwareAuthenticator(ORIGIN)
    const added = await api.add({ response: authenticator.register(options.body) })
    expect(added.status).toBe(201)

    await supertest(app).delete('/api/account/connections/oidc').set(withCookies(cookies)).expect(204)
    // The provider's sign-in ended with its link; the passkey signs in now.
    expect((await me(app, cookies)).status).toBe(401)
    const signedIn = await signInWithPasskey(app, authenticator)
    expect(signedIn.res.status).toBe(200)
    if ((await waysInOf(signedIn.res.body.user.id as number)) > 1) skip('every account has another way in here')
    const refused = await passkeyApi(app, jar(signedIn.res, signedIn.cookies)).remove(added.body.passkey.id, { password: 'anything' })
    expect(refused.status).toBe(422)
    expect(refused.body.errors.password[0]).toMatch(/only way to sign in/)
  })

  it('asks a password-less account whose confirmation ran out to confirm it is you, which its passkey can do', async () => {
    const { cookies } = await signInWith(app, 'oidc', providerLogin(provider))
    const userId = (await me(app, cookies).expect(200)).body.user.id as number
    const options = await passkeyApi(app, cookies).options({})
    const authenticator = new SoftwareAuthenticator(ORIGIN)
    expect((await passkeyApi(app, cookies).add({ response: authenticator.register(options.body) })).status).toBe(201)

    await unconfirm(userId)
    const asked = await passkeyApi(app, cookies).options({ password: 'anything' })
    expect(asked.status).toBe(403)
    expect(asked.body.errors.confirm).toBeDefined()
    const methods = (await supertest(app).get('/api/account/confirm').set(withCookies(cookies))).body.methods
    expect(methods).toEqual(['passkey', 'provider:oidc'])

    const start = await supertest(app).post('/api/account/confirm/passkey/options').set(withCookies(cookies))
    const withChallenge = jar(start, cookies)
    const confirmed = await supertest(app)
      .post('/api/account/confirm/passkey')
      .set(withCookies(withChallenge))
      .send({ response: authenticator.assert(start.body, RP_ID) })
    expect(confirmed.status).toBe(200)
    expect((await passkeyApi(app, withChallenge).options({})).status).toBe(200)
  })
})
