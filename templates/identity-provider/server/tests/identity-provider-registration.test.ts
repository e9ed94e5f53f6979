import * as oidc from 'openid-client'
import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OAuthClient } from '../src/features/identity-provider/models/oauth-client.js'
import { consentAndRedeem, REDIRECT_URI, startProviderApp, type ProviderApp } from './helpers/oauth-provider.js'
import { login, makeUser, useTestApps, withCookies } from './helpers/test-app.js'

const t = useTestApps()
const OPEN = { env: { OAUTH_PROVIDER_REGISTRATION: 'open' } }
/** An MCP client's registration: public, a loopback redirect, code with PKCE. */
const MCP_CLIENT = { client_name: 'Example MCP client', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none' }
const register = (app: ProviderApp, metadata: object) => fetch(`${app.issuer}/reg`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(metadata) })

describe('dynamic client registration (RFC 7591)', () => {
  it('is off by default: no endpoint, none in discovery', async () => {
    const app = await startProviderApp(t)
    try {
      expect((await register(app, MCP_CLIENT)).status).toBe(404)
      const discovery = (await (await fetch(`${app.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>
      expect(discovery.registration_endpoint).toBeUndefined()
    } finally {
      await app.close()
    }
  })

  describe('with OAUTH_PROVIDER_REGISTRATION=open', () => {
    let app: ProviderApp & { close(): Promise<void> }
    beforeAll(async () => {
      app = await startProviderApp(t, OPEN)
    })
    afterAll(() => app.close())

    it('an MCP client registers itself, public, and signs a person in with the code and PKCE', async () => {
      const discovery = (await (await fetch(`${app.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>
      expect(discovery.registration_endpoint).toBe(`${app.issuer}/reg`)
      const config = await oidc.dynamicClientRegistration(new URL(app.issuer), MCP_CLIENT, undefined, { execute: [oidc.allowInsecureRequests] })
      const metadata = config.clientMetadata()
      expect(metadata.client_id).toMatch(/^[a-z0-9]{24}$/)
      expect(metadata.client_secret).toBeUndefined()
      expect(metadata.registration_access_token).toBeUndefined()

      const user = await makeUser()
      const { tokens } = await consentAndRedeem(app, config, { scope: 'read', resource: app.api }, user.email)
      const me = await supertest(app.app).get('/api/auth/me').set('Authorization', `Bearer ${tokens.access_token}`)
      expect(me.status).toBe(200)
      expect(me.body.user).toMatchObject({ id: user.id })
    })

    it('refuses a confidential client, and a grant a person does not take part in (400 invalid_client_metadata)', async () => {
      for (const metadata of [
        { ...MCP_CLIENT, redirect_uris: ['https://agent.example/callback'], token_endpoint_auth_method: 'client_secret_basic' },
        { ...MCP_CLIENT, grant_types: ['client_credentials'], response_types: [], redirect_uris: [] },
      ]) {
        const res = await register(app, metadata)
        expect(res.status, JSON.stringify(metadata)).toBe(400)
        expect(await res.json()).toMatchObject({ error: 'invalid_client_metadata' })
      }
      expect(await OAuthClient.count({ where: { dynamic: true, confidential: true } })).toBe(0)
    })

    it('admins see who registered itself, and delete it', async () => {
      const registered = (await (await register(app, { ...MCP_CLIENT, client_name: 'Agent to remove' })).json()) as { client_id: string }
      const { cookies } = await login(app.app, (await makeUser({ role: 'admin' })).email)
      const listed = await supertest(app.app).get('/api/admin/oauth-clients').set(withCookies(cookies))
      const row = (listed.body.data as { id: number; client_id: string; name: string; type: string; dynamic: boolean }[]).find((client) => client.client_id === registered.client_id)
      expect(row).toMatchObject({ name: 'Agent to remove', type: 'public', dynamic: true, scopes: ['openid', 'offline_access', 'email', 'profile', 'read', 'write'] })
      expect((await supertest(app.app).delete(`/api/admin/oauth-clients/${row!.id}`).set(withCookies(cookies))).status).toBe(204)
      const start = await fetch(`${app.issuer}/auth?${new URLSearchParams({ client_id: registered.client_id, response_type: 'code', redirect_uri: REDIRECT_URI, scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' })}`, { redirect: 'manual' })
      expect(start.status).toBe(400)
    })
  })

  it('is limited per address (RATE_LIMIT_CLIENT_REGISTRATION_PER_IP): 429 past it', async () => {
    const app = await startProviderApp(t, { ...OPEN, rateLimits: { clientRegistrationPerIp: { limit: 2, windowMs: 3_600_000 } } })
    try {
      const statuses: number[] = []
      for (let i = 0; i < 3; i++) statuses.push((await register(app, MCP_CLIENT)).status)
      expect(statuses).toEqual([201, 201, 429])
    } finally {
      await app.close()
    }
  })
})
