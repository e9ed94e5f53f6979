import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BASE_URL, openIdEnv, providerLogin, signInWith, startProvider, UNLIMITED } from './helpers/oauth.js'
import type { TestOidcProvider } from './helpers/oidc-provider.js'
import { useTestApps, type TestApp } from './helpers/test-app.js'

/**
 * The class of open redirects (better-auth CVE-2025-27143): a `redirect` that a browser would
 * read as another site (`//`, `\`, `/\`, encoded slashes and backslashes, a scheme, control
 * characters) is refused before a flow starts; whatever is accepted lands on this site.
 */
const t = useTestApps()
let provider: TestOidcProvider
let app: TestApp['app']
beforeAll(async () => {
  provider = await startProvider()
  ;({ app } = await t.build({ env: openIdEnv(provider.issuer), rateLimits: UNLIMITED }))
})
afterAll(() => provider?.close())

const hostile = [
  '//evil.example',
  '///evil.example',
  '/\\evil.example',
  '\\/evil.example',
  '\\\\evil.example',
  '/\\/evil.example',
  '%2F%2Fevil.example',
  '/%2F%2Fevil.example',
  '/%5Cevil.example',
  '/%5C%5Cevil.example',
  'https:evil.example',
  'https://evil.example',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  '/\tevil.example',
  '/\r\nLocation: https://evil.example',
  ' //evil.example',
  'evil.example',
]

describe('open redirects', () => {
  it.each(hostile)('%j is refused, or lands on this site', async (redirect) => {
    const res = await supertest(app).get('/api/auth/oauth/oidc').query({ redirect })
    if (res.status === 422) {
      expect(res.body.errors.redirect).toBeDefined()
      return
    }
    expect(res.status).toBe(302)
    const done = await signInWith(app, 'oidc', providerLogin(provider), { redirect })
    expect(new URL(done.location!, BASE_URL).origin).toBe(new URL(BASE_URL).origin)
  })

  it('a path of this site is kept', async () => {
    const done = await signInWith(app, 'oidc', providerLogin(provider), { redirect: '/users?page=2' })
    expect(done.location).toBe('/users?page=2')
  })
})
