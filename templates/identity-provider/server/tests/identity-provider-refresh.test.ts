import * as oidc from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consentAndRedeem, discover, REDIRECT_URI, registerClient, startProviderApp, type ProviderApp } from './helpers/oauth-provider.js'
import { account } from './helpers/requests.js'
import { login, makeUser, PASSWORD, useTestApps } from './helpers/test-app.js'

const t = useTestApps()

describe('refresh tokens: rotated at every use, a reused one revokes the grant', () => {
  let app: ProviderApp & { close(): Promise<void> }
  let config: oidc.Configuration
  beforeAll(async () => {
    app = await startProviderApp(t)
    const client = await registerClient(app.app, { name: 'Partner app', type: 'confidential', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], scopes: ['openid', 'read'] })
    config = await discover(app, client)
  })
  afterAll(() => app.close())

  it('each refresh answers a new refresh token; the old one is spent', async () => {
    const { tokens } = await consentAndRedeem(app, config, { scope: 'openid' }, (await makeUser()).email)
    const first = tokens.refresh_token!
    const second = await oidc.refreshTokenGrant(config, first)
    expect(second.refresh_token).toEqual(expect.any(String))
    expect(second.refresh_token).not.toBe(first)
    const third = await oidc.refreshTokenGrant(config, second.refresh_token!)
    expect(third.access_token).toEqual(expect.any(String))
  })

  it('presenting a spent refresh token fails and revokes the whole family: the newest dies too', async () => {
    const { tokens } = await consentAndRedeem(app, config, { scope: 'openid' }, (await makeUser()).email)
    const stolen = tokens.refresh_token!
    const rotated = await oidc.refreshTokenGrant(config, stolen)
    await expect(oidc.refreshTokenGrant(config, stolen)).rejects.toMatchObject({ error: 'invalid_grant' })
    await expect(oidc.refreshTokenGrant(config, rotated.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' })
  })

  it('two refreshes racing with one token: one wins, and the family is revoked', async () => {
    const { tokens } = await consentAndRedeem(app, config, { scope: 'openid' }, (await makeUser()).email)
    const results = await Promise.allSettled([oidc.refreshTokenGrant(config, tokens.refresh_token!), oidc.refreshTokenGrant(config, tokens.refresh_token!)])
    expect(results.filter((result) => result.status === 'fulfilled').length).toBeLessThanOrEqual(1)
    for (const result of results) if (result.status === 'fulfilled') await expect(oidc.refreshTokenGrant(config, result.value.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' })
  })

  it('a password change ends the person\'s grants: their refresh tokens stop working', async () => {
    const user = await makeUser()
    const { tokens } = await consentAndRedeem(app, config, { scope: 'openid' }, user.email)
    const { cookies } = await login(app.app, user.email)
    const changed = await account(app.app, cookies).changePassword({ current_password: PASSWORD, password: 'a new horse battery staple', password_confirmation: 'a new horse battery staple' })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' })
  })
})
