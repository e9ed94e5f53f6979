import * as OTPAuth from 'otpauth'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { axeViolations } from './support/axe'
import { launchBrowser } from './support/browser'
import { focused, tabTo } from './support/keyboard'

// The two-factor layer's pages through axe-core (WCAG 2.2 A/AA, both themes, desktop and phone),
// and its challenge by keyboard alone.
const member = { name: 'Tess Twofactor', email: 'tess@example.com', password: 'tess-password-1' }

let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page
let recoveryCodes: string[] = []

const at = (pathname: string) => `${server.url}${pathname}`
const noViolations = async (name: string) => expect(await axeViolations(page, name)).toEqual([])

async function passwordStep() {
  await page.goto(at('/login'))
  await page.getByLabel('E-mail').fill(member.email)
  await page.getByLabel('Password').fill(member.password)
  await page.getByRole('button', { name: 'Log in' }).click()
}

beforeAll(async () => {
  server = await startAppServer({ users: [member] })
  browser = await launchBrowser()
  page = browser.page
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe.sequential('two-factor: WCAG 2.2 A/AA (axe-core) and the keyboard', () => {
  it('the settings page, off, during set-up with an error, and on with the recovery codes', async () => {
    await passwordStep()
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await page.goto(at('/settings/two-factor'))
    await page.getByRole('button', { name: 'Enable', exact: true }).waitFor()
    await noViolations('two-factor settings, off')

    await page.getByRole('button', { name: 'Enable', exact: true }).click()
    const secret = (await page.getByTestId('two-factor-secret').textContent())!.trim()
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 })
    await noViolations('two-factor set-up')
    await page.getByLabel('Code from the app').fill('000000')
    await page.getByRole('button', { name: 'Confirm', exact: true }).click()
    await page.getByRole('main').getByRole('alert').first().waitFor()
    await noViolations('two-factor set-up with an error')

    await page.getByLabel('Code from the app').fill(totp.generate())
    await page.getByRole('button', { name: 'Confirm', exact: true }).click()
    await page.getByTestId('recovery-codes').waitFor()
    recoveryCodes = (await page.getByTestId('recovery-codes').locator('li').allTextContents()).map((c) => c.trim())
    await noViolations('two-factor on, recovery codes')
  })

  it('the challenge, with an error and for a recovery code', async () => {
    await page.getByRole('banner').getByRole('button', { name: 'Log out' }).click()
    await page.waitForURL((url) => url.pathname === '/login')
    await passwordStep()
    await page.waitForURL((url) => url.pathname === '/two-factor-challenge')
    await page.getByLabel('Code', { exact: true }).waitFor()
    await noViolations('two-factor challenge')
    await page.getByLabel('Code', { exact: true }).fill('000000')
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('main').getByRole('alert').first().waitFor()
    await noViolations('two-factor challenge with an error')
    await page.getByRole('button', { name: 'Use a recovery code' }).click()
    await page.getByLabel('Recovery code').waitFor()
    await noViolations('two-factor challenge, recovery code')
  })

  it('the challenge by keyboard alone: visible focus, an announced and linked error, then in', async () => {
    await page.goto(at('/two-factor-challenge'))
    const code = page.getByLabel('Code', { exact: true })
    await code.waitFor()
    // The field has focus as the page opens, and shows it.
    await expect.poll(async () => (await focused(page))?.name).toBe('Code')
    expect((await focused(page))?.ring).not.toBeNull()

    await page.keyboard.type('000000')
    await page.keyboard.press('Enter')
    const error = page.getByRole('main').getByRole('alert').first()
    await error.waitFor()
    // Announced (role=alert is an assertive live region) and tied to the field it is about.
    const errorId = await error.getAttribute('id')
    expect(errorId).toBeTruthy()
    expect((await code.getAttribute('aria-describedby'))?.split(' ')).toContain(errorId)
    expect(await code.getAttribute('aria-invalid')).toBe('true')

    // On to the recovery-code switch; Enter takes focus into the new field, Enter again signs in.
    expect(await tabTo(page, 'Use a recovery code')).toEqual([])
    await page.keyboard.press('Enter')
    await expect.poll(async () => (await focused(page))?.name).toBe('Recovery code')
    expect((await focused(page))?.ring).not.toBeNull()
    await page.keyboard.type(recoveryCodes[0]!)
    await page.keyboard.press('Enter')
    await page.waitForURL((url) => url.pathname === '/dashboard')
  })
})
