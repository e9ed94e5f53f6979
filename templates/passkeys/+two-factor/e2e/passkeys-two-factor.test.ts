import * as OTPAuth from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { launchWithAuthenticator, steps, type PasskeyBrowser } from './support/passkeys'

const member = { name: 'Tom Twoways', email: 'tom@example.com', password: 'tom-password-1' }

let server: AppServer
let browser: PasskeyBrowser

beforeAll(async () => {
  server = await startAppServer({ users: [member] })
  browser = await launchWithAuthenticator()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('passkeys with two-factor authentication in Chromium', () => {
  it('a password still leads to the challenge; a passkey signs in without it', async () => {
    const { page } = browser
    const step = steps(page, server, member)
    await step.passwordLogIn()
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await step.openSettings('Passkeys', '/settings/passkeys')
    await step.addPasskey('Phone')

    await step.openSettings('Two-factor authentication', '/settings/two-factor')
    // The password just confirmed the session (adding the passkey): the set-up starts at once.
    await page.getByRole('button', { name: 'Enable', exact: true }).click()
    const secret = (await page.getByTestId('two-factor-secret').textContent())!.trim()
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 })
    await page.getByLabel('Code from the app').fill(totp.generate())
    await page.getByRole('button', { name: 'Confirm', exact: true }).click()
    await page.getByText('Two-factor authentication is on.').waitFor()

    // The password still leads to the challenge (the autofill waits meanwhile, untouched).
    await browser.presence(false)
    await step.logOut()
    await step.passwordLogIn()
    await page.waitForURL((url) => url.pathname === '/two-factor-challenge')

    await browser.presence(true)
    const signedIn = step.answerOf('/api/auth/passkey')
    await page.goto(step.at('/login'))
    const answer = await signedIn
    expect(answer.status()).toBe(200)
    expect(await answer.json()).toMatchObject({ user: { email: member.email, twoFactorEnabled: true } })
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await page.getByRole('banner').getByText(member.name, { exact: true }).waitFor()
    await step.shot('passkeys-two-factor-dashboard')
  })
})
