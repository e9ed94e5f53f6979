import fs from 'node:fs'
import path from 'node:path'
import * as OTPAuth from 'otpauth'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authConfig } from '../server/src/kernel/config/auth'
import { startAppServer, type AppServer } from './support/app-server'
import { launchBrowser } from './support/browser'
import { screenshotDir } from './support/paths'

type Browser = Awaited<ReturnType<typeof launchBrowser>>

const STEP_MS = 30_000
const member = { name: 'Tess Twofactor', email: 'tess@example.com', password: 'tess-password-1' }

let server: AppServer
let browser: Browser
let page: Page
let secret = ''
let recoveryCodes: string[] = []
/** The 30-s step of the last code the server accepted: it refuses that step and any earlier one. */
let lastStep = -1

const at = (pathname: string) => `${server.url}${pathname}`
const answerOf = (pathname: string, method = 'POST') =>
  page.waitForResponse((res) => new URL(res.url()).pathname === pathname && res.request().method() === method)

async function shot(name: string) {
  fs.mkdirSync(screenshotDir, { recursive: true })
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true })
}

/** Nothing sticks out sideways on a phone-sized screen. */
async function fitsPhone(name: string) {
  await page.setViewportSize({ width: 390, height: 844 })
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  await shot(`${name}-mobile`)
  await page.setViewportSize({ width: 1280, height: 800 })
  expect(overflow, name).toBeLessThanOrEqual(0)
}

/**
 * A code the server has not seen yet. The server takes the steps next to its own (clock drift),
 * so the step after the last one used is good until the one after that begins; only then is
 * there a wait, for the next 30-s step to begin.
 */
async function freshCode(): Promise<string> {
  for (;;) {
    const now = Math.floor(Date.now() / STEP_MS)
    const step = Math.max(now, lastStep + 1)
    if (step <= now + 1) {
      lastStep = step
      const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 })
      return totp.generate({ timestamp: step * STEP_MS })
    }
    // A little past the boundary, so this clock and the server's agree on the step.
    await new Promise((resolve) => setTimeout(resolve, (now + 1) * STEP_MS - Date.now() + 250))
  }
}

/** The password step; a user with two-factor on lands on the challenge. */
async function passwordStep(remember = false) {
  if (new URL(page.url()).pathname !== '/login') await page.goto(at('/login'))
  await page.getByLabel('E-mail').fill(member.email)
  await page.getByLabel('Password').fill(member.password)
  if (remember) await page.getByLabel('Remember me').check()
  const answer = answerOf('/api/auth/login')
  await page.getByRole('button', { name: 'Log in' }).click()
  expect((await answer).status()).toBe(200)
}

async function onChallenge() {
  await page.waitForURL((url) => url.pathname === '/two-factor-challenge')
  await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor()
}

async function logOut() {
  await page.getByRole('banner').getByRole('button', { name: 'Log out' }).click()
  await page.waitForURL((url) => url.pathname === '/login')
}

/** Types the password into the dialog that `opener` opens and confirms with `confirm`. */
async function withPassword(opener: string, dialogTitle: string, confirm: string) {
  await page.getByRole('button', { name: opener, exact: true }).click()
  const dialog = page.getByRole('dialog', { name: dialogTitle })
  await dialog.getByLabel('Password').fill(member.password)
  await dialog.getByRole('button', { name: confirm, exact: true }).click()
  await dialog.waitFor({ state: 'hidden' })
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

describe.sequential('two-factor authentication in Chromium', () => {
  it('enables two-factor from the settings: QR code, key, code, recovery codes', async () => {
    await page.goto(at('/login'))
    await page.getByLabel('E-mail').fill(member.email)
    await page.getByLabel('Password').fill(member.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL((url) => url.pathname === '/dashboard')

    await page.goto(at('/settings/profile'))
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Two-factor authentication' }).click()
    await page.waitForURL((url) => url.pathname === '/settings/two-factor')

    // Signed in just now: the session is confirmed, and the set-up starts at once.
    await page.getByRole('button', { name: 'Enable', exact: true }).click()
    secret = (await page.getByTestId('two-factor-secret').textContent())!.trim()
    expect(secret).toMatch(/^[A-Z2-7]+=*$/)
    expect(await page.locator('.two-factor__qr svg').count()).toBe(1)
    await shot('two-factor-setup')
    await fitsPhone('two-factor-setup')

    // A wrong code first: the field says so and nothing is enabled.
    await page.getByLabel('Code from the app').fill('000000')
    const wrong = answerOf('/api/account/two-factor/confirm')
    await page.getByRole('button', { name: 'Confirm', exact: true }).click()
    expect((await wrong).status()).toBe(422)
    await page.getByRole('main').getByRole('alert').first().waitFor()

    await page.getByLabel('Code from the app').fill(await freshCode())
    const right = answerOf('/api/account/two-factor/confirm')
    await page.getByRole('button', { name: 'Confirm', exact: true }).click()
    expect((await right).status()).toBe(200)
    const list = page.getByTestId('recovery-codes')
    await list.waitFor()
    recoveryCodes = (await list.locator('li').allTextContents()).map((code) => code.trim())
    expect(recoveryCodes).toHaveLength(8)
    expect(new Set(recoveryCodes).size).toBe(8)
    await page.getByText('Two-factor authentication is on.').waitFor()
    await shot('two-factor-recovery-codes')
    await fitsPhone('two-factor-recovery-codes')
  })

  it('copies and downloads the recovery codes', async () => {
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
    await page.getByRole('button', { name: 'Copy', exact: true }).click()
    await page.getByText('Copied.').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(recoveryCodes.join('\n'))

    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Download', exact: true }).click()
    const file = await (await download).path()
    const text = fs.readFileSync(file, 'utf8')
    for (const code of recoveryCodes) expect(text).toContain(code)
  })

  it('asks for a code after the password, and signs in with one', async () => {
    await logOut()
    await passwordStep()
    await onChallenge()
    // No session yet: only the challenge cookie was set.
    expect((await browser.context.cookies(server.url)).map((c) => c.name)).not.toContain(`${authConfig.name}_access`)
    await shot('two-factor-challenge')

    await page.getByLabel('Code', { exact: true }).fill('000000')
    const wrong = answerOf('/api/auth/two-factor-challenge')
    await page.getByRole('button', { name: 'Continue' }).click()
    expect((await wrong).status()).toBe(422)
    await page.getByRole('main').getByRole('alert').first().waitFor()

    await page.getByLabel('Code', { exact: true }).fill(await freshCode())
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await page.getByRole('banner').getByText(member.name, { exact: true }).waitFor()
  })

  it('signs in with a recovery code, which works only once', async () => {
    await logOut()
    await passwordStep()
    await onChallenge()
    await page.getByRole('button', { name: 'Use a recovery code' }).click()
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]!)
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.waitForURL((url) => url.pathname === '/dashboard')

    await logOut()
    await passwordStep()
    await onChallenge()
    await page.getByRole('button', { name: 'Use a recovery code' }).click()
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]!)
    const used = answerOf('/api/auth/two-factor-challenge')
    await page.getByRole('button', { name: 'Continue' }).click()
    expect((await used).status()).toBe(422)
    await page.getByRole('main').getByRole('alert').first().waitFor()
    expect(new URL(page.url()).pathname).toBe('/two-factor-challenge')
  })

  it('keeps "remember me" and the page asked for across both steps', async () => {
    await page.context().clearCookies()
    await page.goto(at('/settings/profile'))
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirect') === '/settings/profile')
    await passwordStep(true)
    await onChallenge()
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/settings/profile')

    await page.getByRole('button', { name: 'Use a recovery code' }).click()
    await page.getByLabel('Recovery code').fill(recoveryCodes[1]!)
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.waitForURL((url) => url.pathname === '/settings/profile')
    await page.getByRole('heading', { name: 'Profile' }).waitFor()

    // Remembered: the refresh cookie lives as long as the remember life, not the session one.
    const refresh = (await browser.context.cookies(server.url)).find((c) => c.name === `${authConfig.name}_refresh`)
    const life = refresh!.expires - Date.now() / 1000
    expect(life).toBeGreaterThan(authConfig.refreshRememberExpirySeconds - 120)
  })

  it('disables two-factor, after which the password alone signs in', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Two-factor authentication' }).click()
    await page.waitForURL((url) => url.pathname === '/settings/two-factor')
    await withPassword('Disable', 'Disable two-factor authentication', 'Disable')
    await page.getByText('Two-factor authentication is off.').waitFor()
    await page.getByRole('button', { name: 'Enable', exact: true }).waitFor()

    await logOut()
    await passwordStep()
    await page.waitForURL((url) => url.pathname === '/dashboard')
  })
})
