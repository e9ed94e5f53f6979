import fs from 'node:fs'
import path from 'node:path'
import type { CDPSession, Page } from 'playwright-core'
import { expect } from 'vitest'
import type { AppServer } from './app-server'
import { launchBrowser } from './browser'
import { screenshotDir } from './paths'

type Recorded = Window & { passkeyRequests?: string[] }

/**
 * Chromium with a virtual authenticator (the DevTools protocol's WebAuthn domain): a platform
 * authenticator with discoverable credentials and user verification that syncs its passkeys, as
 * iCloud Keychain or Google Password Manager do.
 */
export async function launchWithAuthenticator() {
  const browser = await launchBrowser()
  const { page } = browser
  const cdp: CDPSession = await browser.context.newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
      defaultBackupEligibility: true,
      defaultBackupState: true,
    },
  })
  // Watches, and changes nothing: each request still goes to the browser's own WebAuthn.
  await page.addInitScript(() => {
    const credentials = navigator.credentials
    const get = credentials.get.bind(credentials)
    const seen: string[] = ((window as Recorded).passkeyRequests = [])
    credentials.get = (options) => (seen.push(options?.mediation ?? 'optional'), get(options))
  })
  return {
    ...browser,
    /**
     * The virtual authenticator answers at once while presence is simulated, as if its owner
     * touched it; without, a ceremony waits as for someone who has not picked a passkey yet.
     * Chromium then answers a conditional (autofill) request with no list shown and no click:
     * landing on the login page signs in, which is what the user's pick from the autofill would do.
     */
    presence: (enabled: boolean) => cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled }),
    storedCredentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
    /** The mediation of each passkey request this page made: "conditional" for the autofill's. */
    passkeyRequests: () => page.evaluate(() => (window as Recorded).passkeyRequests ?? []),
  }
}

export type PasskeyBrowser = Awaited<ReturnType<typeof launchWithAuthenticator>>

/** The steps the passkey browser tests share, on one page of one app. */
export function steps(page: Page, server: AppServer, member: { email: string; password: string }) {
  const at = (pathname: string) => `${server.url}${pathname}`
  const here = () => new URL(page.url()).pathname
  const answerOf = (pathname: string | RegExp, method = 'POST') =>
    page.waitForResponse((res) => {
      const { pathname: seen } = new URL(res.url())
      return (typeof pathname === 'string' ? seen === pathname : pathname.test(seen)) && res.request().method() === method
    })

  return {
    at,
    here,
    answerOf,
    async shot(name: string) {
      fs.mkdirSync(screenshotDir, { recursive: true })
      await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true })
    },
    async passwordLogIn() {
      if (here() !== '/login') await page.goto(at('/login'))
      await page.getByLabel('E-mail').fill(member.email)
      await page.getByLabel('Password').fill(member.password)
      const answer = answerOf('/api/auth/login')
      await page.getByRole('button', { name: 'Log in' }).click()
      expect((await answer).status()).toBe(200)
    },
    async logOut() {
      await page.getByRole('banner').getByRole('button', { name: 'Log out' }).click()
      await page.waitForURL((url) => url.pathname === '/login')
    },
    async openSettings(link: string, pathname: string) {
      await page.goto(at('/settings/profile'))
      await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: link }).click()
      await page.waitForURL((url) => url.pathname === pathname)
    },
    /** Settings → Passkeys → "Add a passkey", behind the password. */
    async addPasskey(name: string) {
      await page.getByLabel('Name of the new passkey (optional)').fill(name)
      await page.getByRole('button', { name: 'Add a passkey', exact: true }).click()
      const dialog = page.getByRole('dialog', { name: 'Add a passkey' })
      await dialog.getByLabel('Password').fill(member.password)
      const added = answerOf('/api/account/passkeys')
      await dialog.getByRole('button', { name: 'Continue', exact: true }).click()
      expect((await added).status()).toBe(201)
      await dialog.waitFor({ state: 'hidden' })
    },
  }
}
