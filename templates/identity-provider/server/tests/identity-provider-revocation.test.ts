import * as oidc from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consentAndRedeem, discover, REDIRECT_URI, registerClient, startProviderApp, type ProviderApp } from './helpers/oauth-provider.js'
import { makeUser, useTestApps } from './helpers/test-app.js'

const t = useTestApps()

describe('revocation (RFC 7009) and introspection (RFC 7662)', () => {
  let app: ProviderApp & { close(): Promise<void> }
  let config: oidc.Configuration
  let other: oidc.Configuration
  beforeAll(async () => {
    app = await startProviderApp(t)
    const body = { type: 'confidential', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], scopes: ['openid', 'email'] }
    config = await discover(app, await registerClient(app.app, { name: 'Partner app', ...body }))
    other = await discover(app, await registerClient(app.app, { name: 'Another app', ...body }))
  })
  afterAll(() => app.close())

  it('introspection tells an active token and its person; a revoked refresh token is inactive and refreshes nothing', async () => {
    const user = await makeUser()
    const { tokens } = await consentAndRedeem(app, config, { scope: 'openid email' }, user.email)
    expect(await oidc.tokenIntrospection(config, tokens.access_token)).toMatchObject({ active: true, sub: String(user.id), scope: expect.stringContaining('email') })
    expect(await oidc.tokenIntrospection(config, tokens.refresh_token!)).toMatchObject({ active: true, sub: String(user.id) })
    await oidc.tokenRevocation(config, tokens.refresh_token!)
    expect(await oidc.tokenIntrospection(config, tokens.refresh_token!)).toEqual({ active: false })
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' })
  })

  it('a revoked access token is inactive', async () => {
    const { tokens } = await consentAndRedeem(app, config, { scope: 'openid' }, (await makeUser()).email)
    await oidc.tokenRevocation(config, tokens.access_token)
    expect(await oidc.tokenIntrospection(config, tokens.access_token)).toEqual({ active: false })
  })

  it('another client can neither revoke a token it was not issued nor learn about it', async () => {
    const { tokens } = await consentAndRedeem(app, config, { scope: 'openid' }, (await makeUser()).email)
    await expect(oidc.tokenRevocation(other, tokens.refresh_token!)).rejects.toBeDefined()
    expect(await oidc.tokenIntrospection(config, tokens.refresh_token!)).toMatchObject({ active: true })
  })

  it('an unknown token is simply inactive', async () => {
    expect(await oidc.tokenIntrospection(config, 'not-a-token')).toEqual({ active: false })
  })
})
