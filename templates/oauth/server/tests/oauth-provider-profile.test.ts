import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OAuthAccount } from '../src/features/oauth/models/oauth-account.js'
import { User } from '../src/kernel/models/index.js'
import { openIdEnv, providerLogin, signInWith, startProvider, UNLIMITED } from './helpers/oauth.js'
import type { TestOidcProvider } from './helpers/oidc-provider.js'
import { me } from './helpers/requests.js'
import { makeUser, names, useTestApps, type TestApp } from './helpers/test-app.js'

/**
 * What a provider says about its user is data from outside: its address meets the one rule of
 * every way in (kernel/services/email-address.ts), and its display name the rule of a registration's.
 */
const t = useTestApps()
let provider: TestOidcProvider
let app: TestApp['app']

beforeAll(async () => {
  provider = await startProvider()
  ;({ app } = await t.build({ env: openIdEnv(provider.issuer), rateLimits: UNLIMITED }))
})
afterAll(() => provider?.close())

const local = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}`

describe("a provider's address", () => {
  it.each([
    ['a Kelvin sign', '\u212A', 'k'],
    ['a capital I with a dot', '\u0130', 'i'],
  ])('with %s is refused (/login?error=email_unverified): no account for the plain look-alike, none linked', async (_what, lookalike, plain) => {
    const name = local(`${plain}im`)
    const login = providerLogin(provider, { email: `${lookalike}${name.slice(1)}@example.com` })
    const { location, cookies } = await signInWith(app, 'oidc', login)
    expect(location).toBe('/login?error=email_unverified')
    expect(cookies[names().access]).toBeUndefined()
    expect(await User.count({ where: { email: `${name}@example.com` } })).toBe(0)
    expect(await OAuthAccount.count({ where: { subject: login } })).toBe(0)
  })

  it('that looks like an existing account is refused, and the account stays untouched', async () => {
    const owner = await makeUser({ verified: true, email: `${local('kim')}@example.com` })
    const login = providerLogin(provider, { email: `\u212A${owner.email.slice(1)}` })
    expect((await signInWith(app, 'oidc', login)).location).toBe('/login?error=email_unverified')
    expect(await OAuthAccount.count({ where: { userId: owner.id } })).toBe(0)
  })

  it('outside ASCII, in capitals and decomposed, makes an account with the address lower-cased and composed', async () => {
    const name = local('j\u00f6rg')
    const login = providerLogin(provider, { email: `  ${name.toUpperCase().normalize('NFD')}@Example.COM ` })
    const { location, cookies } = await signInWith(app, 'oidc', login)
    expect(location).toBe('/dashboard')
    const email = `${name}@example.com`
    expect((await me(app, cookies).expect(200)).body.user.email).toBe(email)
    expect(await OAuthAccount.findOne({ where: { subject: login } })).toMatchObject({ email })
  })
})

describe("a provider's display name", () => {
  it('loses its line breaks and control characters, as a registered name would', async () => {
    const login = providerLogin(provider, { name: ' Ada\r\nBcc: victim@example.com\u0007 Lovelace\u2028 ' })
    const { cookies } = await signInWith(app, 'oidc', login)
    expect((await me(app, cookies).expect(200)).body.user.name).toBe('Ada  Bcc: victim@example.com  Lovelace')
  })

  it('of only spaces and control characters falls back to the address before the @', async () => {
    const name = local('grace')
    const login = providerLogin(provider, { email: `${name}@example.com`, name: '\r\n\t ' })
    const { cookies } = await signInWith(app, 'oidc', login)
    expect((await me(app, cookies).expect(200)).body.user.name).toBe(name)
  })

  it('longer than 255 characters is cut to 255', async () => {
    const login = providerLogin(provider, { name: 'x'.repeat(300) })
    const { cookies } = await signInWith(app, 'oidc', login)
    expect((await me(app, cookies).expect(200)).body.user.name).toBe('x'.repeat(255))
  })
})
