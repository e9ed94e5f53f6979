import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { axeViolations } from './support/axe'
import { launchBrowser } from './support/browser'

// The provider in Chromium: a partner app's sign-in (login, consent, back to its redirect URI)
// and a CLI's device flow (/device, the provider's confirmation, consent, done).
const admin = { name: 'Ada Admin', email: 'ada@example.com', password: 'ada-password-1', role: 'admin' as const }
const person = { name: 'Pia Person', email: 'pia@example.com', password: 'pia-password-1' }
const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code'

let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page
let partner: http.Server
let redirectUri = ''
let cspErrors: string[] = []

/** An admin registers a client through the API, as the admins' page does. */
async function registerClient(body: object): Promise<string> {
  const headers = { 'content-type': 'application/json', origin: server.url }
  const signIn = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers, body: JSON.stringify({ email: admin.email, password: admin.password }) })
  const cookie = signIn.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ')
  const made = await fetch(`${server.url}/api/admin/oauth-clients`, { method: 'POST', headers: { ...headers, cookie }, body: JSON.stringify(body) })
  if (made.status !== 201) throw new Error(`client: ${made.status} ${await made.text()}`)
  return ((await made.json()) as { client: { client_id: string } }).client.client_id
}

async function logIn() {
  await page.getByLabel('E-mail').fill(person.email)
  await page.getByLabel('Password').fill(person.password)
  await page.getByRole('button', { name: 'Log in' }).click()
}

beforeAll(async () => {
  server = await startAppServer({ users: [admin, person] })
  // The partner app: its redirect URI on loopback, where the browser lands with the code.
  partner = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('partner'))
  await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve))
  redirectUri = `http://127.0.0.1:${(partner.address() as AddressInfo).port}/callback`
  browser = await launchBrowser()
  page = browser.page
  page.on('console', (message) => message.type() === 'error' && /Content Security Policy|Refused/.test(message.text()) && cspErrors.push(message.text()))
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  partner?.close()
})

describe('the OAuth provider in Chromium', () => {
  it('an admin registers a confidential client on /admin/oauth-clients and sees its secret once', async () => {
    cspErrors = []
    await page.goto(`${server.url}/login`)
    await page.getByLabel('E-mail').fill(admin.email)
    await page.getByLabel('Password').fill(admin.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await page.getByRole('banner').getByRole('link', { name: 'OAuth clients' }).click()
    await page.getByRole('heading', { name: 'Register a client' }).waitFor()
    await page.getByLabel('Name').fill('Partner Server')
    await page.getByLabel('Confidential').check()
    await page.getByLabel('Redirect URIs').fill('https://partner.example/callback')
    await page.getByRole('button', { name: 'Register', exact: true }).click()
    const secret = page.locator('.client-secret')
    await secret.waitFor()
    expect(await secret.textContent()).toMatch(/^[\w-]{43}$/)
    expect(await page.locator('.client-list > li').filter({ hasText: 'Partner Server' }).count()).toBe(1)
    expect(await axeViolations(page, 'oauth-clients')).toEqual([])
    await page.getByRole('button', { name: 'Done' }).click()
    await page.getByRole('banner').getByRole('button', { name: 'Log out' }).click()
    await page.waitForURL((url) => url.pathname === '/login')
    expect(cspErrors).toEqual([])
  }, 60_000)

  it('a partner app: login, the consent page, and back to its redirect URI with a code', async () => {
    cspErrors = []
    const clientId = await registerClient({ name: 'Partner App', type: 'public', redirect_uris: [redirectUri], grant_types: ['authorization_code'], scopes: ['openid', 'email'] })
    const authorize = new URL(`${server.url}/oauth2/auth`)
    authorize.search = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'openid email',
      state: 'state-1',
      nonce: 'nonce-1',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }).toString()
    await page.goto(authorize.href)
    await page.waitForURL((url) => url.pathname === '/login')
    await logIn()
    await page.getByText('Partner App asks to use your account.').waitFor()
    expect(await page.getByRole('listitem').allTextContents()).toEqual(expect.arrayContaining(['Know who you are', 'See your e-mail address']))
    expect(await axeViolations(page, 'oauth-consent')).toEqual([])
    await page.getByRole('button', { name: 'Allow' }).click()
    await page.waitForURL((url) => url.href.startsWith(redirectUri))
    const back = new URL(page.url())
    expect(back.searchParams.get('state')).toBe('state-1')
    expect(back.searchParams.get('code')).toEqual(expect.any(String))
    expect(cspErrors).toEqual([])
  }, 60_000)

  it('a CLI: the code typed on /device, confirmed, allowed; the CLI gets its tokens', async () => {
    cspErrors = []
    const clientId = await registerClient({ name: 'Example CLI', type: 'public', grant_types: [DEVICE_CODE], scopes: ['openid'] })
    const asked = await fetch(`${server.url}/oauth2/device/auth`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: clientId, scope: 'openid' }) })
    const device = (await asked.json()) as { device_code: string; user_code: string; verification_uri: string }
    expect(device.verification_uri).toBe(`${server.url}/device`)

    await page.goto(device.verification_uri)
    await page.getByLabel('Code').waitFor()
    expect(await axeViolations(page, 'oauth-device')).toEqual([])
    await page.getByLabel('Code').fill(device.user_code.toLowerCase())
    await page.getByRole('button', { name: 'Continue' }).click()

    // The provider's own page: which app, which code; then the app's consent page.
    await page.getByText('Example CLI asks to sign in with your account.').waitFor()
    expect(await page.locator('code').textContent()).toBe(device.user_code)
    expect(await axeViolations(page, 'oauth-device-confirm')).toEqual([])
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('button', { name: 'Allow' }).click()
    await page.getByRole('heading', { name: 'You are signed in on your device' }).waitFor()

    const token = await fetch(`${server.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: DEVICE_CODE, device_code: device.device_code, client_id: clientId }),
    })
    expect(token.status).toBe(200)
    expect(await token.json()).toMatchObject({ access_token: expect.any(String), id_token: expect.any(String) })
    expect(cspErrors).toEqual([])
  }, 60_000)
})
