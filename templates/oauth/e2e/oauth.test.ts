import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startAppServer, type AppServer } from './support/app-server'
import { launchBrowser } from './support/browser'
import { screenshotDir } from './support/paths'
import { startOidcProvider, type TestOidcProvider } from '../server/tests/helpers/oidc-provider'
import { freePort } from '../server/tests/helpers/processes'

// The provider is a real OpenID provider (oidc-provider) with its own sign-in and consent
// pages, which the browser goes through as a user would.
const client = { clientId: 'e2e-app', clientSecret: 'e2e-app-client-secret' }
const member = { name: 'Pat Password', email: 'pat@example.com', password: 'pat-password-1' }

let provider: TestOidcProvider
let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page

const at = (path: string) => `${server.url}${path}`
const here = () => new URL(page.url()).pathname
const shot = (name: string) => page.screenshot({ path: `${screenshotDir}/oauth-${name}.png`, fullPage: true })

/**
 * Clicks `start`, then at the provider's own pages signs in as `login` (any password) and
 * consents when asked. The provider's own session is dropped first, so it asks who signs in.
 */
async function throughProvider(start: () => Promise<void>, login: string) {
  await browser.context.clearCookies({ domain: new URL(provider.issuer).hostname })
  await start()
  await page.waitForURL((url) => url.origin === new URL(provider.issuer).origin)
  await page.locator('input[name="login"]').fill(login)
  await page.locator('input[name="password"]').fill('any password')
  await page.getByRole('button', { name: 'Sign-in' }).click()
  const consent = page.getByRole('button', { name: 'Continue' })
  // The provider asks for consent once per client and account.
  await Promise.race([consent.waitFor().then(() => consent.click()), page.waitForURL((url) => url.origin === server.url)])
}

async function logOut() {
  await page.getByRole('banner').getByRole('button', { name: 'Log out' }).click()
  await page.waitForURL((url) => url.pathname === '/login')
}

beforeAll(async () => {
  // The provider registers the app's redirect URI, so the app's port is chosen before either starts.
  const appPort = await freePort()
  const base = `http://localhost:${appPort}`
  provider = await startOidcProvider({ clients: [{ ...client, redirectUris: [`${base}/api/auth/oauth/oidc/callback`] }] })
  provider.account('sam', { email: 'sam@provider.test', email_verified: true, name: 'Sam Provider' })
  server = await startAppServer({
    users: [member],
    port: appPort,
    env: {
      // An http issuer is refused in production; the provider here is plain http.
      NODE_ENV: 'test',
      OAUTH_OIDC_ISSUER: provider.issuer,
      OAUTH_OIDC_CLIENT_ID: client.clientId,
      OAUTH_OIDC_CLIENT_SECRET: client.clientSecret,
      OAUTH_OIDC_NAME: 'Test ID',
    },
  })
  browser = await launchBrowser()
  page = browser.page
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await provider?.close()
})

describe.sequential('social sign-in in Chromium', () => {
  it('signs up with the provider from the register page, through its own pages', async () => {
    await page.goto(at('/register'))
    await throughProvider(() => page.getByRole('link', { name: 'Sign up with Test ID' }).click(), 'sam')
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await page.getByText('Sam Provider').first().waitFor()
    await shot('signed-up')
  })

  it('signs out, and signs in again with the button on the login page', async () => {
    await logOut()
    await throughProvider(() => page.getByRole('link', { name: 'Continue with Test ID' }).click(), 'sam')
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await page.getByText('Sam Provider').first().waitFor()
  })

  it('tells an existing account apart in plain words, and links the provider from settings after a password sign-in', async () => {
    await logOut()
    provider.account('pat-same-address', { email: member.email, email_verified: true })
    await throughProvider(() => page.getByRole('link', { name: 'Continue with Test ID' }).click(), 'pat-same-address')
    await page.waitForURL((url) => url.pathname === '/login')
    await page.getByRole('alert').filter({ hasText: /already/i }).waitFor()
    await shot('account-exists')

    await page.getByLabel('E-mail').fill(member.email)
    await page.getByLabel('Password').fill(member.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await page.goto(at('/settings/profile'))
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Connections' }).click()
    await page.waitForURL((url) => url.pathname === '/settings/connections')
    await throughProvider(() => page.getByRole('button', { name: 'Link Test ID' }).click(), 'pat-same-address')
    await page.waitForURL((url) => url.pathname === '/settings/connections')
    await page.getByRole('button', { name: 'Unlink Test ID' }).waitFor()
    expect(here()).toBe('/settings/connections')
    await shot('linked')

    await logOut()
    await throughProvider(() => page.getByRole('link', { name: 'Continue with Test ID' }).click(), 'pat-same-address')
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await page.getByText(member.name).first().waitFor()
  })
})
