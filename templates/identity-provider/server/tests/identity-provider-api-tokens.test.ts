import * as oidc from 'openid-client'
import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consentAndRedeem, discover, REDIRECT_URI, registerClient, startProviderApp, type ProviderApp } from './helpers/oauth-provider.js'
import { login, makeUser, useTestApps, withCookies } from './helpers/test-app.js'
import { OAuthClient } from '../src/features/identity-provider/models/oauth-client.js'

const t = useTestApps()
const SCOPE = { message: 'The key used lacks the scope this needs.' }
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` })

describe('the app\'s API as a protected resource', () => {
  let app: ProviderApp & { close(): Promise<void> }
  let config: oidc.Configuration
  beforeAll(async () => {
    app = await startProviderApp(t)
    const client = await registerClient(app.app, { name: 'Agent', type: 'public', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], scopes: ['openid', 'read', 'write'] })
    config = await discover(app, client)
  })
  afterAll(() => app.close())

  it('publishes RFC 9728 metadata naming the provider', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/api']) {
      const res = await fetch(`${app.base}${path}`)
      expect(res.status, path).toBe(200)
      expect(await res.json()).toEqual({ resource: app.api, authorization_servers: [app.issuer], scopes_supported: ['read', 'write'], bearer_methods_supported: ['header'], dpop_signing_alg_values_supported: ['ES256', 'Ed25519', 'EdDSA'] })
    }
  })

  it('answers a missing or bad bearer token 401 with WWW-Authenticate naming that metadata', async () => {
    const challenge = `Bearer resource_metadata="${app.base}/.well-known/oauth-protected-resource"`
    const missing = await supertest(app.app).get('/api/auth/me')
    expect(missing.status).toBe(401)
    expect(missing.headers['www-authenticate']).toBe(challenge)
    const forged = `${Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'at+jwt' })).toString('base64url')}.${Buffer.from('{"sub":"1"}').toString('base64url')}.c2ln`
    const bad = await supertest(app.app).get('/api/auth/me').set(bearer(forged))
    expect(bad.status).toBe(401)
    expect(bad.headers['www-authenticate']).toBe(challenge)
  })

  it('a token for the API (RFC 8707 resource) is a JWT for {BASE_URL}/api, and reads as its person with read', async () => {
    const user = await makeUser()
    const { tokens } = await consentAndRedeem(app, config, { scope: 'read', resource: app.api }, user.email)
    const [header, payload] = tokens.access_token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>)
    expect(header).toMatchObject({ typ: 'at+jwt', alg: 'ES256' })
    expect(payload).toMatchObject({ iss: app.issuer, aud: app.api, sub: String(user.id), scope: 'read' })
    const me = await supertest(app.app).get('/api/auth/me').set(bearer(tokens.access_token))
    expect(me.status).toBe(200)
    expect(me.body.user).toMatchObject({ id: user.id })
    // read alone: nothing that writes.
    const write = await supertest(app.app).post('/api/webhooks').set(bearer(tokens.access_token)).send({ url: 'https://hooks.example.test/x', events: ['*'] })
    expect(write.status).toBe(403)
    expect(write.body).toEqual(SCOPE)
  })

  it('with write, the writes; never the account, credential or step-up routes', async () => {
    const user = await makeUser()
    const { tokens } = await consentAndRedeem(app, config, { scope: 'read write', resource: app.api }, user.email)
    // Past the scope: what stops a person who is not an admin here is their role, not the token.
    const write = await supertest(app.app).post('/api/webhooks').set(bearer(tokens.access_token)).send({ url: 'https://hooks.example.test/x', events: ['*'] })
    expect(write.body).not.toEqual(SCOPE)
    for (const [method, path] of [['put', '/api/account/password'], ['delete', '/api/account/sessions'], ['post', '/api/auth/logout'], ['get', '/api/account/sessions'], ['post', '/api/admin/oauth-clients'], ['get', '/api/oauth2/interaction/x']] as const) {
      const res = await supertest(app.app)[method](path).set(bearer(tokens.access_token)).send({})
      expect(res.status, `${method} ${path}`).toBe(403)
    }
  })

  it('an admin deleting the client ends its tokens on their next request', async () => {
    const client = await registerClient(app.app, { name: 'Soon gone', type: 'public', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code'], scopes: ['read'] })
    const gone = await discover(app, client)
    const { tokens } = await consentAndRedeem(app, gone, { scope: 'read', resource: app.api }, (await makeUser()).email)
    expect((await supertest(app.app).get('/api/auth/me').set(bearer(tokens.access_token))).status).toBe(200)
    const row = await OAuthClient.findOne({ where: { clientId: client.client_id } })
    const { cookies } = await login(app.app, (await makeUser({ role: 'admin' })).email)
    expect((await supertest(app.app).delete(`/api/admin/oauth-clients/${row!.id}`).set(withCookies(cookies))).status).toBe(204)
    expect((await supertest(app.app).get('/api/auth/me').set(bearer(tokens.access_token))).status).toBe(401)
  })

  it('a token for userinfo is no key to the API', async () => {
    const user = await makeUser()
    const { tokens } = await consentAndRedeem(app, config, { scope: 'openid read' }, user.email)
    // openid without a resource at the token endpoint: an opaque token for userinfo.
    expect(tokens.access_token.split('.')).toHaveLength(1)
    expect((await supertest(app.app).get('/api/auth/me').set(bearer(tokens.access_token))).status).toBe(401)
  })

  it('a token signed by someone else is refused', async () => {
    const { generateKeyPairSync, sign } = await import('node:crypto')
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    const user = await makeUser()
    const now = Math.floor(Date.now() / 1000)
    const head = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'at+jwt', kid: 'x' })).toString('base64url')
    const body = Buffer.from(JSON.stringify({ iss: app.issuer, aud: app.api, sub: String(user.id), client_id: 'x', scope: 'read write', iat: now, exp: now + 600, jti: 'x' })).toString('base64url')
    const signature = sign('sha256', Buffer.from(`${head}.${body}`), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')
    expect((await supertest(app.app).get('/api/auth/me').set(bearer(`${head}.${body}.${signature}`))).status).toBe(401)
  })
})
