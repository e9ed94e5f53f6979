import * as oidc from 'openid-client'
import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEVICE_CODE } from '../src/features/identity-provider/services/client-fields.js'
import { Browser, discover, registerClient, startProviderApp, type ProviderApp } from './helpers/oauth-provider.js'
import { login, makeUser, redisUrl, useTestApps } from './helpers/test-app.js'

const t = useTestApps()
// RFC 8628 and oidc-provider's base-20: no vowels, so no words; shown as XXXX-XXXX.
const USER_CODE = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/
const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() })
const xsrfOf = (html: string) => /name="xsrf" value="([^"]+)"/.exec(html)![1]!

/** What the person's browser does from the app's /device page: its form, then the provider's own form posting itself. */
async function typeCode(browser: Browser, userCode: string): Promise<Response> {
  const page = await browser.fetch(`/oauth2/device?${new URLSearchParams({ user_code: userCode })}`)
  if (page.status !== 200) throw new Error(`GET /oauth2/device: ${page.status}`)
  return browser.fetch('/oauth2/device', form({ xsrf: xsrfOf(await page.text()), user_code: userCode }))
}

/** The person types the code, confirms it on the provider's page, and answers on the consent page: where it all ends. */
async function approve(browser: Browser, userCode: string, answer: 'consent' | 'deny' = 'consent'): Promise<Response> {
  const confirm = await typeCode(browser, userCode)
  const confirmed = await browser.fetch('/oauth2/device', form({ xsrf: xsrfOf(await confirm.text()), user_code: userCode, confirm: 'yes' }))
  const consentPage = new URL(confirmed.headers.get('location') ?? '', browser.app.base)
  if (consentPage.pathname !== '/oauth2/authorize') throw new Error(`not the consent page: ${confirmed.status} ${consentPage.href}`)
  const answered = await browser.api('POST', `/api/oauth2/interaction/${consentPage.searchParams.get('uid')}/${answer}`)
  // The provider's redirects, up to its last page or back to the app's /device.
  let res = await browser.fetch(String(answered.body.redirect))
  for (let hops = 0; res.status >= 300 && res.status < 400 && hops < 5; hops++) {
    const next = new URL(res.headers.get('location')!, browser.app.base)
    if (!next.pathname.startsWith('/oauth2/')) break
    res = await browser.fetch(next.href)
  }
  return res
}

const redeem = (config: oidc.Configuration, deviceCode: string, resource?: string) =>
  oidc.genericGrantRequest(config, DEVICE_CODE, { device_code: deviceCode, ...(resource ? { resource } : {}) })

// The device code and its user code are kept in the database, or in Redis where the app has it.
const storages: [string, boolean][] = [['the database', false], ...(redisUrl ? [['Redis', true] as [string, boolean]] : [])]

describe.each(storages)('the device authorization grant (RFC 8628), codes in %s: a CLI signs in by a code typed on /device', (_storage, redis) => {
  let app: ProviderApp & { close(): Promise<void> }
  let config: oidc.Configuration
  let signedIn: (email: string) => Promise<Browser>
  beforeAll(async () => {
    app = await startProviderApp(t, { redis })
    const client = await registerClient(app.app, { name: 'Example CLI', type: 'public', grant_types: [DEVICE_CODE, 'refresh_token'], scopes: ['openid', 'offline_access', 'email', 'read'] })
    config = await discover(app, client)
    signedIn = async (email) => {
      const browser = new Browser(app)
      browser.signIn((await login(app.app, email)).cookies)
      return browser
    }
  })
  afterAll(() => app.close())

  it('sends the person to the app\'s /device page with a code, then answers the CLI tokens for them', async () => {
    const user = await makeUser({ name: 'Dev Ice' })
    const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid offline_access email read', resource: app.api })
    expect(started.user_code).toMatch(USER_CODE)
    expect(started.verification_uri).toBe(`${app.base}/device`)
    expect(started.verification_uri_complete).toBe(`${app.base}/device?user_code=${encodeURIComponent(started.user_code)}`)
    expect(started.expires_in).toBeLessThanOrEqual(600)
    await expect(redeem(config, started.device_code)).rejects.toMatchObject({ error: 'authorization_pending' })

    const done = await approve(await signedIn(user.email), started.user_code)
    expect(done.status).toBe(200)
    expect(done.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; frame-ancestors 'none'$/)
    expect(await done.text()).toContain('Example CLI is signed in.')

    const tokens = await redeem(config, started.device_code, app.api)
    expect(tokens.claims()).toMatchObject({ iss: app.issuer, sub: String(user.id) })
    expect(tokens.refresh_token).toEqual(expect.any(String))
    const me = await supertest(app.app).get('/api/auth/me').set('Authorization', `Bearer ${tokens.access_token}`)
    expect(me.status).toBe(200)
    expect(me.body.user).toMatchObject({ id: user.id })
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!)
    expect(refreshed.access_token).toEqual(expect.any(String))
    // A device code is redeemed once; presented again, it ends what it gave (as a replayed code does).
    await expect(redeem(config, started.device_code)).rejects.toMatchObject({ error: 'invalid_grant' })
    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' })
  })

  it('the provider\'s pages ask which app and which code before anything is granted, framed by nobody', async () => {
    const user = await makeUser()
    const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' })
    const browser = await signedIn(user.email)
    const posting = await browser.fetch(`/oauth2/device?${new URLSearchParams({ user_code: started.user_code })}`)
    // The form that posts itself runs only by its hash.
    expect(posting.headers.get('content-security-policy')).toMatch(/^default-src 'none';script-src 'self' 'sha256-[^']+';frame-ancestors 'none'$/)
    expect(posting.headers.get('x-frame-options')).toBe('DENY')
    const confirm = await browser.fetch('/oauth2/device', form({ xsrf: xsrfOf(await posting.text()), user_code: started.user_code }))
    expect(confirm.status).toBe(200)
    const html = await confirm.text()
    expect(html).toContain('Example CLI asks to sign in with your account.')
    expect(html).toContain(`<code>${started.user_code}</code>`)
    expect(html).not.toContain('<script')
    await expect(redeem(config, started.device_code)).rejects.toMatchObject({ error: 'authorization_pending' })
  })

  it('a wrong code goes back to /device saying so; the codes are case- and dash-blind', async () => {
    const user = await makeUser()
    const browser = await signedIn(user.email)
    const wrong = await typeCode(browser, 'BBBB-BBBB')
    expect(wrong.status).toBe(303)
    expect(wrong.headers.get('location')).toBe(`${app.base}/device?error=code`)
    const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' })
    const typed = await typeCode(browser, started.user_code.toLowerCase().replace('-', ''))
    expect(typed.status).toBe(200)
    expect(await typed.text()).toContain('Example CLI')
  })

  it('turned down on the confirmation or on the consent page: the CLI hears access_denied', async () => {
    const user = await makeUser()
    const browser = await signedIn(user.email)
    const aborted = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' })
    const confirm = await typeCode(browser, aborted.user_code)
    const abort = await browser.fetch('/oauth2/device', form({ xsrf: xsrfOf(await confirm.text()), user_code: aborted.user_code, abort: 'yes' }))
    expect(abort.status).toBe(303)
    expect(abort.headers.get('location')).toBe(`${app.base}/device?error=aborted`)
    await expect(redeem(config, aborted.device_code)).rejects.toMatchObject({ error: 'access_denied' })

    const denied = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' })
    const back = await approve(browser, denied.user_code, 'deny')
    expect(back.headers.get('location')).toBe(`${app.base}/device?error=aborted`)
    await expect(redeem(config, denied.device_code)).rejects.toMatchObject({ error: 'access_denied' })
  })

  it('a used code cannot be typed again: one code, one device', async () => {
    const user = await makeUser()
    const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' })
    await approve(await signedIn(user.email), started.user_code)
    const again = await typeCode(await signedIn((await makeUser()).email), started.user_code)
    expect(again.status).toBe(303)
    expect(again.headers.get('location')).toBe(`${app.base}/device?error=code`)
    expect((await redeem(config, started.device_code)).claims()!.sub).toBe(String(user.id))
  })

  it('a client without the grant may not start it', async () => {
    const other = await registerClient(app.app, { name: 'Code only', type: 'public', redirect_uris: ['http://127.0.0.1:8123/callback'], grant_types: ['authorization_code'], scopes: ['openid'] })
    // oidc-provider's answer (RFC 8628 leaves it open): a request this client may not make.
    await expect(oidc.initiateDeviceAuthorization(await discover(app, other), { scope: 'openid' })).rejects.toMatchObject({
      error: 'invalid_request',
      error_description: `${DEVICE_CODE} is not allowed for this client`,
    })
  })
})

describe('rate limits on the device endpoints', () => {
  it('typing codes is limited per address (RATE_LIMIT_DEVICE_CODE_PER_IP): 429 past it', async () => {
    const app = await startProviderApp(t, { rateLimits: { deviceCodePerIp: { limit: 2, windowMs: 60_000 } } })
    try {
      const browser = new Browser(app)
      browser.signIn((await login(app.app, (await makeUser()).email)).cookies)
      const statuses: number[] = []
      for (let i = 0; i < 3; i++) statuses.push((await typeCode(browser, 'BBBB-BBBB')).status)
      expect(statuses).toEqual([303, 303, 429])
    } finally {
      await app.close()
    }
  })
})
