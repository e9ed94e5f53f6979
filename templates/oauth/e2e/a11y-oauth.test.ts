import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOidcProvider, type TestOidcProvider } from '../server/tests/helpers/oidc-provider'
import { freePort } from '../server/tests/helpers/processes'
import { startAppServer, type AppServer } from './support/app-server'
import { axeViolations } from './support/axe'
import { launchBrowser } from './support/browser'

// The oauth layer's pages through axe-core (WCAG 2.2 A/AA, both themes, desktop and phone): the
// provider buttons and the connections page, one provider linked (a real OpenID provider the
// browser signs up through) and one not (GitHub, configured and never reached).
const client = { clientId: 'e2e-a11y', clientSecret: 'e2e-a11y-client-secret' }

let provider: TestOidcProvider
let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page

const at = (path: string) => `${server.url}${path}`
const noViolations = async (name: string) => expect(await axeViolations(page, name)).toEqual([])

beforeAll(async () => {
  const appPort = await freePort()
  provider = await startOidcProvider({ clients: [{ ...client, redirectUris: [`http://localhost:${appPort}/api/auth/oauth/oidc/callback`] }] })
  provider.account('sam', { email: 'sam@provider.test', email_verified: true, name: 'Sam Provider' })
  server = await startAppServer({
    users: [],
    port: appPort,
    env: {
      // An http issuer is refused in production; the provider here is plain http.
      NODE_ENV: 'test',
      OAUTH_OIDC_ISSUER: provider.issuer,
      OAUTH_OIDC_CLIENT_ID: client.clientId,
      OAUTH_OIDC_CLIENT_SECRET: client.clientSecret,
      OAUTH_OIDC_NAME: 'Test ID',
      OAUTH_GITHUB_CLIENT_ID: 'e2e-a11y-github',
      OAUTH_GITHUB_CLIENT_SECRET: 'e2e-a11y-github-secret',
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

describe.sequential('oauth: WCAG 2.2 A/AA (axe-core)', () => {
  it('the provider buttons on the login and register pages', async () => {
    await page.goto(at('/login'))
    await page.getByRole('link', { name: 'Continue with Test ID' }).waitFor()
    await noViolations('login with providers')
    await page.goto(at('/register'))
    await page.getByRole('link', { name: 'Sign up with Test ID' }).waitFor()
    await noViolations('register with providers')
  })

  it('the connections page and its unlink dialog', async () => {
    await page.getByRole('link', { name: 'Sign up with Test ID' }).click()
    await page.waitForURL((url) => url.origin === new URL(provider.issuer).origin)
    await page.locator('input[name="login"]').fill('sam')
    await page.locator('input[name="password"]').fill('any password')
    await page.getByRole('button', { name: 'Sign-in' }).click()
    const consent = page.getByRole('button', { name: 'Continue' })
    await Promise.race([consent.waitFor().then(() => consent.click()), page.waitForURL((url) => url.origin === server.url)])
    await page.waitForURL((url) => url.pathname === '/dashboard')

    await page.goto(at('/settings/connections'))
    await page.getByRole('button', { name: 'Unlink Test ID' }).waitFor()
    await noViolations('connections')
    await page.getByRole('button', { name: 'Unlink Test ID' }).click()
    await page.getByRole('dialog').waitFor()
    await noViolations('connections, unlink dialog')
    await page.keyboard.press('Escape')
  })
})
