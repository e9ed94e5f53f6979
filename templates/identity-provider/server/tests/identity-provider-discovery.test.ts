import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProviderApp, type ProviderApp } from './helpers/oauth-provider.js'
import { useTestApps } from './helpers/test-app.js'
import { envOf } from '../src/kernel/index.js'
import { config } from '../src/features/identity-provider/config.js'
import { SigningKey } from '../src/features/identity-provider/models/signing-key.js'
import { rotateSigningKeys } from '../src/features/identity-provider/services/signing-keys.js'

const t = useTestApps()

describe('the provider is found by discovery, and publishes its keys', () => {
  let app: ProviderApp & { close(): Promise<void> }
  beforeAll(async () => {
    app = await startProviderApp(t)
  })
  afterAll(() => app.close())

  it('answers OpenID discovery at {issuer}/.well-known/openid-configuration', async () => {
    const res = await fetch(`${app.issuer}/.well-known/openid-configuration`)
    expect(res.status).toBe(200)
    const metadata = (await res.json()) as Record<string, unknown>
    expect(metadata).toMatchObject({
      issuer: app.issuer,
      authorization_endpoint: `${app.issuer}/auth`,
      token_endpoint: `${app.issuer}/token`,
      jwks_uri: `${app.issuer}/jwks`,
      userinfo_endpoint: `${app.issuer}/me`,
      revocation_endpoint: `${app.issuer}/token/revocation`,
      introspection_endpoint: `${app.issuer}/token/introspection`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
    })
    expect(metadata.id_token_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256', 'RS256']))
    expect(metadata.id_token_signing_alg_values_supported).toHaveLength(2)
    // Neither implicit nor password: the code, refreshes and client credentials alone.
    expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials']))
    expect(metadata.grant_types_supported).not.toContain('implicit')
    expect(metadata.grant_types_supported).not.toContain('password')
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile', 'offline_access']))
  })

  it('answers RFC 8414 discovery at the origin, for the issuer with and without its path: the same document', async () => {
    const openid = await (await fetch(`${app.issuer}/.well-known/openid-configuration`)).json()
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-authorization-server/oauth2']) {
      const res = await fetch(`${app.base}${path}`)
      expect(res.status, path).toBe(200)
      const metadata = (await res.json()) as Record<string, unknown>
      expect(metadata.issuer).toBe(app.issuer)
      // The endpoints under the issuer, not the origin (an MCP client reads this document first).
      expect(metadata.token_endpoint, path).toBe(`${app.issuer}/token`)
      expect(metadata).toEqual(openid)
    }
  })

  it('publishes an ES256 and an RS256 public key, made on first start and kept sealed', async () => {
    const res = await fetch(`${app.issuer}/jwks`)
    expect(res.status).toBe(200)
    const { keys } = (await res.json()) as { keys: Array<Record<string, unknown>> }
    expect(keys.map((key) => key.alg).sort()).toEqual(['ES256', 'RS256'])
    for (const key of keys) {
      expect(key.d, 'no private part is published').toBeUndefined()
      expect(key.use).toBe('sig')
    }
    const rows = await SigningKey.findAll({ where: { kid: keys.map((key) => String(key.kid)) } })
    expect(rows).toHaveLength(2)
    for (const row of rows) {
      expect(row.privateJwk.startsWith('v1.'), 'sealed with ENCRYPTION_KEY').toBe(true)
      expect(row.privateJwk).not.toContain('"d"')
    }
  })

  it('frames nothing of the provider', async () => {
    const res = await fetch(`${app.issuer}/.well-known/openid-configuration`)
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
  })

  it('rotation (oauth-provider:rotate-keys): new keys sign from the next start, the old ones stay published', async () => {
    const kids = async (base: ProviderApp) => ((await (await fetch(`${base.issuer}/jwks`)).json()) as { keys: Array<{ kid: string }> }).keys.map((key) => key.kid)
    const before = await kids(app)
    expect(await rotateSigningKeys(envOf(config, app.ctx.env).ENCRYPTION_KEY)).toMatch(/Restart every instance/)
    const restarted = await startProviderApp(t)
    try {
      const after = await kids(restarted)
      expect(after).toHaveLength(4)
      expect(after.slice(2).sort()).toEqual([...before].sort())
      expect(after.slice(0, 2).some((kid) => before.includes(kid))).toBe(false)
    } finally {
      await restarted.close()
    }
  })
})
