import { createHash, randomUUID } from 'node:crypto'
import { calculateJwkThumbprint, exportJWK, SignJWT } from 'jose'
import * as oidc from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consentAndRedeem, discover, REDIRECT_URI, registerClient, startProviderApp, type ProviderApp } from './helpers/oauth-provider.js'
import { makeUser, useTestApps } from './helpers/test-app.js'

const t = useTestApps()

interface Proof {
  method?: string
  url?: string
  token?: string
  iat?: number
  jti?: string
  keys?: CryptoKeyPair
}

describe('DPoP (RFC 9449): tokens bound to the client\'s key', () => {
  let app: ProviderApp & { close(): Promise<void> }
  let config: oidc.Configuration
  let keys: CryptoKeyPair
  let me: string
  beforeAll(async () => {
    app = await startProviderApp(t)
    const client = await registerClient(app.app, { name: 'CLI', type: 'public', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], scopes: ['openid', 'offline_access', 'read'] })
    config = await discover(app, client)
    keys = await oidc.randomDPoPKeyPair('ES256')
    me = `${app.base}/api/auth/me`
  })
  afterAll(() => app.close())

  const boundToken = async (pair = keys) => {
    const user = await makeUser()
    const { tokens } = await consentAndRedeem(app, config, { scope: 'openid offline_access read', resource: app.api }, user.email, { DPoP: oidc.getDPoPHandle(config, pair) })
    return { user, tokens }
  }

  /** A proof as RFC 9449 §4.2 writes it, each part changeable to make it wrong. */
  const proof = async (token: string, { method = 'GET', url = me, iat = Math.floor(Date.now() / 1000), jti = randomUUID(), keys: pair = keys }: Proof = {}) =>
    new SignJWT({ htm: method, htu: url, iat, jti, ath: createHash('sha256').update(token).digest('base64url') })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: await exportJWK(pair.publicKey) })
      .sign(pair.privateKey)

  const call = (token: string, headers: Record<string, string>, method = 'GET', url = me) => fetch(url, { method, headers: { accept: 'application/json', ...headers } })

  it('the provider binds the token to the key: cnf.jkt, token_type DPoP; the API reads it with a proof', async () => {
    const { user, tokens } = await boundToken()
    expect(tokens.token_type.toLowerCase()).toBe('dpop')
    const payload = JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString('utf8')) as { cnf?: { jkt?: string } }
    expect(payload.cnf?.jkt).toBe(await calculateJwkThumbprint(await exportJWK(keys.publicKey)))
    const res = await oidc.fetchProtectedResource(config, tokens.access_token, new URL(me), 'GET', undefined, undefined, { DPoP: oidc.getDPoPHandle(config, keys) })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { user: { id: number } }).user.id).toBe(user.id)
    // A query string is no part of what the proof names.
    expect((await call(tokens.access_token, { authorization: `DPoP ${tokens.access_token}`, dpop: await proof(tokens.access_token, { url: `${me}` }) }, 'GET', `${me}?x=1`)).status).toBe(200)
  })

  it('a bound token as a bearer is refused: a thief without the key holds nothing', async () => {
    const { tokens } = await boundToken()
    const res = await call(tokens.access_token, { authorization: `Bearer ${tokens.access_token}` })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${app.base}/.well-known/oauth-protected-resource", DPoP error="invalid_token", algs="ES256 Ed25519 EdDSA"`)
  })

  it('refuses a proof that is missing, replayed, for another method, address or token, by another key, or stale', async () => {
    const { tokens } = await boundToken()
    const token = tokens.access_token
    const dpop = (headers: Record<string, string> = {}) => ({ authorization: `DPoP ${token}`, ...headers })
    const missing = await call(token, dpop())
    expect(missing.status).toBe(401)
    expect(missing.headers.get('www-authenticate')).toContain('DPoP error="invalid_dpop_proof"')

    const once = await proof(token)
    expect((await call(token, dpop({ dpop: once }))).status).toBe(200)
    expect((await call(token, dpop({ dpop: once }))).status, 'replayed').toBe(401)

    const other = await oidc.randomDPoPKeyPair('ES256')
    const wrong: [string, Proof][] = [
      ['another method', { method: 'POST' }],
      ['another address', { url: `${app.base}/api/account` }],
      ['another token', { token: `${token}x` }],
      ['another key', { keys: other }],
      ['ten minutes old', { iat: Math.floor(Date.now() / 1000) - 600 }],
      ['from the future', { iat: Math.floor(Date.now() / 1000) + 600 }],
    ]
    for (const [why, parts] of wrong) {
      const res = await call(token, dpop({ dpop: await proof(parts.token ?? token, parts) }))
      expect(res.status, why).toBe(401)
    }
    // Two proofs at once: not one proof.
    expect((await call(token, dpop({ dpop: `${await proof(token)}, ${await proof(token)}` }))).status).toBe(401)
    // Still good with a fresh, right proof.
    expect((await call(token, dpop({ dpop: await proof(token) }))).status).toBe(200)
  })

  it('an unbound token said to be bound is refused', async () => {
    const { tokens } = await consentAndRedeem(app, config, { scope: 'read', resource: app.api }, (await makeUser()).email)
    expect(tokens.token_type.toLowerCase()).toBe('bearer')
    expect((await call(tokens.access_token, { authorization: `Bearer ${tokens.access_token}` })).status).toBe(200)
    const res = await call(tokens.access_token, { authorization: `DPoP ${tokens.access_token}`, dpop: await proof(tokens.access_token) })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toContain('DPoP error="invalid_token"')
  })

  it('a public client\'s refresh token is bound too: refreshed with the key alone', async () => {
    const { tokens } = await boundToken()
    const other = await oidc.randomDPoPKeyPair('ES256')
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: oidc.getDPoPHandle(config, other) })).rejects.toMatchObject({ error: 'invalid_grant' })
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: oidc.getDPoPHandle(config, keys) })
    expect(refreshed.token_type.toLowerCase()).toBe('dpop')
  })
})
