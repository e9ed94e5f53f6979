import * as OTPAuth from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { waitUntilUnconfirmed } from './support/confirm-its-you'
import { launchWithAuthenticator, steps, type PasskeyBrowser } from './support/passkeys'

const member = { name: 'Pia Passkey', email: 'pia@example.com', password: 'pia-password-1' }

let server: AppServer
let browser: PasskeyBrowser

beforeAll(async () => {
  // A confirmation lasts seconds here, so the test can wait one out.
  server = await startAppServer({ users: [member], env: { CONFIRM_TTL: '3s' } })
  browser = await launchWithAuthenticator()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('confirm it’s you with a passkey in Chromium', () => {
  it('enables two-factor on a session no longer confirmed: the dialog, a passkey, then the set-up', async () => {
    const { page } = browser
    const step = steps(page, server, member)
    await step.passwordLogIn()
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await step.openSettings('Passkeys', '/settings/passkeys')
    await step.addPasskey('Laptop')

    await step.openSettings('Two-factor authentication', '/settings/two-factor')
    await waitUntilUnconfirmed(page, server.url)
    const refused = step.answerOf('/api/account/two-factor')
    await page.getByRole('button', { name: 'Enable', exact: true }).click()
    expect((await refused).status()).toBe(403)
    const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' })
    // The account has both: its password and, now, a passkey.
    await dialog.getByLabel('Password').waitFor()
    await step.shot('confirm-its-you-passkey')

    const confirmed = step.answerOf('/api/account/confirm/passkey')
    const repeated = step.answerOf('/api/account/two-factor')
    // The virtual authenticator answers the browser's prompt as its owner's touch would.
    await dialog.getByRole('button', { name: 'Use a passkey' }).click()
    expect((await confirmed).status()).toBe(200)
    expect((await repeated).status()).toBe(200)
    await dialog.waitFor({ state: 'hidden' })

    const secret = (await page.getByTestId('two-factor-secret').textContent())!.trim()
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 })
    await page.getByLabel('Code from the app').fill(totp.generate())
    await page.getByRole('button', { name: 'Confirm', exact: true }).click()
    await page.getByText('Two-factor authentication is on.').waitFor()
  })
})
