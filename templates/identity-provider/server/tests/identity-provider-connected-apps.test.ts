import * as oidc from 'openid-client'
import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SecurityEvent } from '../src/kernel/models/index.js'
import { consentAndRedeem, discover, REDIRECT_URI, registerClient, startProviderApp, type ProviderApp, type RegisteredClient } from './helpers/oauth-provider.js'
import { mailTo } from './helpers/mail.js'
import { login, makeUser, useTestApps, withCookies } from './helpers/test-app.js'

const t = useTestApps()
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` })

describe('connected apps: a person sees the apps they allowed and takes each back', () => {
  let app: ProviderApp & { close(): Promise<void> }
  let partner: RegisteredClient
  let config: oidc.Configuration
  beforeAll(async () => {
    app = await startProviderApp(t)
    partner = await registerClient(app.app, { name: 'Partner app', type: 'public', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], scopes: ['openid', 'offline_access', 'email', 'read', 'write'] })
    config = await discover(app, partner)
  })
  afterAll(() => app.close())

  /** A person who allowed the partner app: their API token, refresh token and cookies. */
  async function connected(scope = 'openid offline_access read') {
    const user = await makeUser()
    const { tokens } = await consentAndRedeem(app, config, { scope, resource: app.api }, user.email)
    const { cookies } = await login(app.app, user.email)
    return { user, tokens, cookies }
  }
  const list = (cookies: Record<string, string>) => supertest(app.app).get('/api/account/connected-apps').set(withCookies(cookies))
  const remove = (cookies: Record<string, string>, clientId: string) => supertest(app.app).delete(`/api/account/connected-apps/${encodeURIComponent(clientId)}`).set(withCookies(cookies))
  const me = (token: string) => supertest(app.app).get('/api/auth/me').set(bearer(token))

  it('lists each app once with the scopes allowed, when, and its last token', async () => {
    const { tokens, cookies } = await connected()
    await oidc.refreshTokenGrant(config, tokens.refresh_token!, { resource: app.api })
    const res = await list(cookies)
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([
      // offline_access is granted only with prompt=consent (OpenID Connect Core 11): the grant holds what was given.
      { client_id: partner.client_id, name: 'Partner app', scopes: ['openid', 'read'], createdAt: expect.any(String), lastUsedAt: expect.any(String) },
    ])
    expect(Date.parse(res.body.data[0].lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(res.body.data[0].createdAt))
  })

  it('allowing an app is an event with a notice; allowing no more than before is none', async () => {
    const user = await makeUser()
    const mail = (await t.mailServer()).next((sent) => mailTo(user.email)(sent) && sent.subject === 'An app was allowed to use your account')
    await consentAndRedeem(app, config, { scope: 'openid email' }, user.email)
    expect((await mail).body).toContain('Settings → Connected apps')
    const events = async () => (await SecurityEvent.findAll({ where: { userId: user.id, type: 'oauth_app_authorized' } })).map((row) => JSON.parse(row.meta!))
    expect(await events()).toEqual([{ clientId: partner.client_id, name: 'Partner app', scopes: ['openid', 'email'] }])
    await consentAndRedeem(app, config, { scope: 'openid' }, user.email)
    expect(await events()).toHaveLength(1)
  })

  it('removing one ends it at once: its API token is 401 on its next request, its refresh token refreshes nothing', async () => {
    const { user, tokens, cookies } = await connected()
    expect((await me(tokens.access_token)).status).toBe(200)
    expect((await remove(cookies, partner.client_id)).status).toBe(204)
    expect((await me(tokens.access_token)).status).toBe(401)
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' })
    expect((await list(cookies)).body.data).toEqual([])
    const row = await SecurityEvent.findOne({ where: { userId: user.id, type: 'oauth_app_revoked' } })
    expect(JSON.parse(row!.meta!)).toEqual({ clientId: partner.client_id, name: 'Partner app' })
    // Gone: a second removal has nothing to remove.
    expect((await remove(cookies, partner.client_id)).status).toBe(404)
  })

  it("another person's app, or an unknown one, is a 404 and ends nothing", async () => {
    const owner = await connected()
    const stranger = await login(app.app, (await makeUser()).email)
    expect((await remove(stranger.cookies, partner.client_id)).status).toBe(404)
    expect((await remove(stranger.cookies, 'no-such-client')).status).toBe(404)
    expect((await me(owner.tokens.access_token)).status).toBe(200)
  })

  it('signing out everywhere ends every app too: the API token at once, the refresh token', async () => {
    const { tokens, cookies } = await connected()
    expect((await me(tokens.access_token)).status).toBe(200)
    await supertest(app.app).post('/api/auth/logout-all').set(withCookies(cookies)).expect(204)
    expect((await me(tokens.access_token)).status).toBe(401)
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' })
  })

  it('is for the person in a session only: a token of the app cannot list or remove apps', async () => {
    const { tokens } = await connected('openid read write')
    expect((await supertest(app.app).get('/api/account/connected-apps').set(bearer(tokens.access_token))).status).toBe(403)
    expect((await supertest(app.app).delete(`/api/account/connected-apps/${partner.client_id}`).set(bearer(tokens.access_token))).status).toBe(403)
    expect((await supertest(app.app).get('/api/account/connected-apps')).status).toBe(401)
  })
})
