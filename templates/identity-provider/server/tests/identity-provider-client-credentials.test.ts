import * as oidc from 'openid-client'
import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { discover, registerClient, startProviderApp, type ProviderApp, type RegisteredClient } from './helpers/oauth-provider.js'
import { login, makeUser, useTestApps, withCookies } from './helpers/test-app.js'

const t = useTestApps()

describe('client credentials: a confidential client acts as itself', () => {
  let app: ProviderApp & { close(): Promise<void> }
  let client: RegisteredClient
  let config: oidc.Configuration
  beforeAll(async () => {
    app = await startProviderApp(t)
    client = await registerClient(app.app, { name: 'Nightly job', type: 'confidential', grant_types: ['client_credentials'], scopes: ['read'] })
    config = await discover(app, client)
  })
  afterAll(() => app.close())

  it('gets a token with its secret, which introspection shows as the client\'s own', async () => {
    const tokens = await oidc.clientCredentialsGrant(config)
    expect(tokens.token_type.toLowerCase()).toBe('bearer')
    const seen = await oidc.tokenIntrospection(config, tokens.access_token)
    expect(seen).toMatchObject({ active: true, client_id: client.client_id })
  })

  it('a wrong secret is refused', async () => {
    const wrong = await discover(app, { ...client, client_secret: 'x'.repeat(43) })
    await expect(oidc.clientCredentialsGrant(wrong)).rejects.toMatchObject({ cause: [{ parameters: expect.objectContaining({ error: 'invalid_client' }) }] })
  })

  it('the secret is kept as a hash, shown once, and a new one replaces it at once', async () => {
    const admin = await makeUser({ role: 'admin' })
    const { cookies } = await login(app.app, admin.email)
    const listed = await supertest(app.app).get('/api/admin/oauth-clients').set(withCookies(cookies))
    expect(JSON.stringify(listed.body)).not.toContain(client.client_secret!)
    const row = (listed.body.data as Array<{ id: number; client_id: string }>).find((each) => each.client_id === client.client_id)!
    const rotated = await supertest(app.app).post(`/api/admin/oauth-clients/${row.id}/secret`).set(withCookies(cookies))
    expect(rotated.status).toBe(200)
    await expect(oidc.clientCredentialsGrant(config)).rejects.toMatchObject({ cause: [{ parameters: expect.objectContaining({ error: 'invalid_client' }) }] })
    const renewed = await discover(app, { client_id: client.client_id, client_secret: rotated.body.client_secret })
    expect((await oidc.clientCredentialsGrant(renewed)).access_token).toEqual(expect.any(String))
    client = { client_id: client.client_id, client_secret: rotated.body.client_secret }
    config = renewed
  })

  it('a public client cannot use client credentials, and gets no secret', async () => {
    const admin = await makeUser({ role: 'admin' })
    const { cookies } = await login(app.app, admin.email)
    const refused = await supertest(app.app).post('/api/admin/oauth-clients').set(withCookies(cookies)).send({ name: 'CLI', type: 'public', grant_types: ['client_credentials'], scopes: ['read'] })
    expect(refused.status).toBe(422)
    expect(refused.body.errors.grant_types).toEqual(['Only a confidential client can use client credentials.'])
  })

  it('the token endpoint is rate limited per address', async () => {
    const limited = await startProviderApp(t, { rateLimits: { tokenEndpointPerIp: { limit: 2, windowMs: 60_000 } } })
    try {
      const own = await registerClient(limited.app, { name: 'Job', type: 'confidential', grant_types: ['client_credentials'], scopes: ['read'] })
      const cfg = await discover(limited, own)
      await oidc.clientCredentialsGrant(cfg)
      await oidc.clientCredentialsGrant(cfg)
      const res = await fetch(cfg.serverMetadata().token_endpoint!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${own.client_id}:${own.client_secret}`).toString('base64')}` }, body: 'grant_type=client_credentials' })
      expect(res.status).toBe(429)
    } finally {
      await limited.close()
    }
  })
})
