import { Redis } from 'ioredis'
import * as oidc from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OidcPayload } from '../src/features/identity-provider/models/oidc-payload.js'
import { authorization, Browser, consentAndRedeem, discover, followToClient, REDIRECT_URI, registerClient, startProviderApp, toConsentPage, type ProviderApp } from './helpers/oauth-provider.js'
import { account } from './helpers/requests.js'
import { login, makeUser, PASSWORD, redisLabel, redisUrl, useTestApps } from './helpers/test-app.js'

const t = useTestApps()

/** The short-lived kinds: in Redis where the app has it (services/redis-adapter.ts). */
const SHORT_LIVED = ['Session', 'Interaction', 'AuthorizationCode', 'DeviceCode', 'ReplayDetection']

describe.skipIf(!redisUrl)(`the provider on Redis: sessions, interactions and codes live there${redisLabel}`, () => {
  let app: ProviderApp & { close(): Promise<void> }
  let config: oidc.Configuration
  let redis: Redis
  beforeAll(async () => {
    app = await startProviderApp(t, { redis: true })
    redis = new Redis(redisUrl!)
    const client = await registerClient(app.app, { name: 'Example CLI', type: 'public', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], scopes: ['openid', 'read'] })
    config = await discover(app, client)
  })
  afterAll(async () => {
    redis.disconnect()
    await app.close()
  })

  /** A code, not yet redeemed, as the client gets it back. */
  async function codeFor(email: string) {
    const browser = new Browser(app)
    browser.signIn((await login(app.app, email)).cookies)
    const request = await authorization(config, { scope: 'openid' })
    const uid = await toConsentPage(browser, request.url)
    const consent = await browser.api('POST', `/api/oauth2/interaction/${uid}/consent`)
    const back = await followToClient(browser, String(consent.body.redirect))
    return { back, checks: { pkceCodeVerifier: request.verifier, expectedState: request.state, expectedNonce: request.nonce } }
  }

  it('signs a person in with no database row of a session, an interaction or a code; the grant and refresh token stay in the database', async () => {
    const user = await makeUser()
    const before = await redis.dbsize()
    const { tokens } = await consentAndRedeem(app, config, { scope: 'openid' }, user.email)
    expect(tokens.refresh_token).toEqual(expect.any(String))
    expect(await redis.dbsize()).toBeGreaterThan(before)
    const kinds = (await OidcPayload.findAll({ where: { userId: user.id }, attributes: ['kind'] })).map((row) => row.kind)
    expect(kinds).toContain('Grant')
    expect(kinds).toContain('RefreshToken')
    expect(kinds.filter((kind) => SHORT_LIVED.includes(kind))).toEqual([])
    // Nothing in Redis holds a token as it is.
    for (const key of await redis.keys('*oidc:*')) {
      if ((await redis.type(key)) === 'string') expect(await redis.get(key)).not.toContain(tokens.refresh_token!)
    }
  })

  it('a code is single-use: redeeming it twice fails, and the grant it made is revoked', async () => {
    const { back, checks } = await codeFor((await makeUser()).email)
    const first = await oidc.authorizationCodeGrant(config, back, checks)
    await expect(oidc.authorizationCodeGrant(config, back, checks)).rejects.toMatchObject({ error: 'invalid_grant' })
    await expect(oidc.refreshTokenGrant(config, first.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' })
  })

  it('two redemptions racing with one code: one at most wins, and the grant is revoked', async () => {
    const { back, checks } = await codeFor((await makeUser()).email)
    const results = await Promise.allSettled([oidc.authorizationCodeGrant(config, back, checks), oidc.authorizationCodeGrant(config, back, checks)])
    expect(results.filter((result) => result.status === 'fulfilled').length).toBeLessThanOrEqual(1)
    for (const result of results) if (result.status === 'fulfilled') await expect(oidc.refreshTokenGrant(config, result.value.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' })
  })

  it('a code issued before a password change is refused after it: its grant is gone', async () => {
    const user = await makeUser()
    const { back, checks } = await codeFor(user.email)
    const { cookies } = await login(app.app, user.email)
    const changed = await account(app.app, cookies).changePassword({ current_password: PASSWORD, password: 'a new horse battery staple', password_confirmation: 'a new horse battery staple' })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    await expect(oidc.authorizationCodeGrant(config, back, checks)).rejects.toMatchObject({ error: 'invalid_grant' })
  })
})
