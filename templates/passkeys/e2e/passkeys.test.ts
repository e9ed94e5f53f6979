import type { Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authConfig } from '../server/src/kernel/config/auth'
import { startAppServer, type AppServer } from './support/app-server'
import { launchWithAuthenticator, steps, type PasskeyBrowser } from './support/passkeys'

const member = { name: 'Pia Passkey', email: 'pia@example.com', password: 'pia-password-1' }

let server: AppServer
let browser: PasskeyBrowser
let page: PasskeyBrowser['page']
let step: ReturnType<typeof steps>

const onePasskey = /^\/api\/account\/passkeys\/[^/]+$/
const passkeyItem = (name: string) => page.locator('.passkey').filter({ has: page.getByText(name, { exact: true }) })

/** Nothing sticks out sideways on a phone-sized screen. */
async function fitsPhone(name: string) {
  await page.setViewportSize({ width: 390, height: 844 })
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  await step.shot(`${name}-mobile`)
  await page.setViewportSize({ width: 1280, height: 800 })
  expect(overflow, name).toBeLessThanOrEqual(0)
}

beforeAll(async () => {
  server = await startAppServer({ users: [member] })
  browser = await launchWithAuthenticator()
  page = browser.page
  step = steps(page, server, member)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe.sequential('passkeys in Chromium', () => {
  it('adds a passkey in the settings, behind the password, and renames it', async () => {
    await step.passwordLogIn()
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await step.openSettings('Passkeys', '/settings/passkeys')
    await page.getByText('You have no passkeys yet.').waitFor()

    await page.getByLabel('Name of the new passkey (optional)').fill('Test laptop')
    await page.getByRole('button', { name: 'Add a passkey', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'Add a passkey' })
    await dialog.getByLabel('Password').fill('not-the-password')
    const refused = step.answerOf('/api/account/passkeys/options')
    await dialog.getByRole('button', { name: 'Continue', exact: true }).click()
    expect((await refused).status()).toBe(422)
    await dialog.getByRole('alert').first().waitFor()
    expect(await browser.storedCredentials()).toHaveLength(0)

    await dialog.getByLabel('Password').fill(member.password)
    const added = step.answerOf('/api/account/passkeys')
    await dialog.getByRole('button', { name: 'Continue', exact: true }).click()
    expect((await added).status()).toBe(201)
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('status').filter({ hasText: 'Passkey “Test laptop” added.' }).waitFor()
    const item = passkeyItem('Test laptop')
    await item.getByText('Never used').waitFor()
    await item.getByText('Synced', { exact: true }).waitFor()

    // A discoverable credential for this host: the login page finds it without an e-mail.
    const credentials = await browser.storedCredentials()
    expect(credentials).toHaveLength(1)
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' })

    await page.getByRole('button', { name: 'Rename Test laptop' }).click()
    await page.getByLabel('New name for “Test laptop”').fill('Laptop')
    const renamed = step.answerOf(onePasskey, 'PATCH')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    expect((await renamed).status()).toBe(200)
    await passkeyItem('Laptop').waitFor()
    await step.shot('passkeys-settings')
    await fitsPhone('passkeys-settings')
  })

  it('signs in with the button while the autofill waits, keeping "remember me"', async () => {
    // No touch yet: the autofill's ceremony starts and waits.
    await browser.presence(false)
    const autofillStarted = step.answerOf('/api/auth/passkey/options')
    await step.logOut()
    expect((await autofillStarted).status()).toBe(200)
    expect(await page.getByLabel('E-mail').getAttribute('autocomplete')).toBe('username webauthn')
    await page.waitForTimeout(500)
    expect(step.here()).toBe('/login')
    await step.shot('passkeys-login')
    await fitsPhone('passkeys-login')

    await page.getByLabel('Remember me').check()
    await browser.presence(true)
    const options = step.answerOf('/api/auth/passkey/options')
    const signedIn = step.answerOf('/api/auth/passkey')
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
    // A ceremony of its own, on a new challenge; the waiting autofill was aborted for it.
    expect((await options).status()).toBe(200)
    const answer = await signedIn
    expect(answer.status()).toBe(200)
    expect(answer.request().postDataJSON()).toMatchObject({ remember: true, response: { id: expect.any(String) } })
    await page.waitForURL((url) => url.pathname === '/dashboard')
    expect(await browser.passkeyRequests()).toEqual(['conditional', 'optional'])
    await page.getByRole('banner').getByText(member.name, { exact: true }).waitFor()

    const refresh = (await browser.context.cookies(server.url)).find((c) => c.name === `${authConfig.name}_refresh`)
    expect(refresh!.expires - Date.now() / 1000).toBeGreaterThan(authConfig.refreshRememberExpirySeconds - 120)
  })

  it('signs in through the e-mail field’s autofill and goes to the page asked for', async () => {
    await browser.context.clearCookies()
    let optionsAsked = 0
    const count = (req: Request) => {
      if (new URL(req.url()).pathname === '/api/auth/passkey/options') optionsAsked++
    }
    page.on('request', count)
    const signedIn = step.answerOf('/api/auth/passkey')
    await page.goto(step.at('/settings/passkeys'))
    // Nothing clicked: the conditional request started with the page got the passkey.
    expect((await signedIn).status()).toBe(200)
    await page.waitForURL((url) => url.pathname === '/settings/passkeys')
    page.off('request', count)
    expect(optionsAsked).toBe(1)
    expect(await browser.passkeyRequests()).toEqual(['conditional'])
    await passkeyItem('Laptop').getByText('Last used').waitFor()
  })

  it('removes the passkey, which then signs in no more', async () => {
    // Removing a passkey ends the sign-ins it made: this one is the password's, which goes on.
    // The authenticator stays away meanwhile, or the login page's autofill would sign in with it.
    await browser.presence(false)
    await browser.context.clearCookies()
    await step.passwordLogIn()
    await step.openSettings('Passkeys', '/settings/passkeys')
    await page.getByRole('button', { name: 'Remove Laptop' }).click()
    const dialog = page.getByRole('dialog', { name: 'Remove passkey' })
    await dialog.getByLabel('Password').fill(member.password)
    const removed = step.answerOf(onePasskey, 'DELETE')
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click()
    expect((await removed).status()).toBe(204)
    await page.getByText('You have no passkeys yet.').waitFor()
    await page.getByRole('status').filter({ hasText: 'Passkey “Laptop” removed.' }).waitFor()

    // The authenticator still holds it; the app no longer knows it.
    expect(await browser.storedCredentials()).toHaveLength(1)
    await browser.presence(true)
    await browser.context.clearCookies()
    const refused = step.answerOf('/api/auth/passkey')
    await page.goto(step.at('/login'))
    expect((await refused).status()).toBe(401)
    await page.getByRole('main').getByRole('alert').filter({ hasText: 'This passkey could not sign you in.' }).waitFor()
    expect(step.here()).toBe('/login')
    await step.shot('passkeys-refused')
  })
})
