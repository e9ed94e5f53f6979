import fs from 'node:fs'
import path from 'node:path'
import * as OTPAuth from 'otpauth'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { launchBrowser } from './support/browser'
import { waitUntilUnconfirmed } from './support/confirm-its-you'
import { screenshotDir } from './support/paths'

const member = { name: 'Cora Confirm', email: 'cora@example.com', password: 'cora-password-1' }

let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page

const at = (pathname: string) => `${server.url}${pathname}`
const answersOf = (pathname: string, method = 'POST') => {
  const statuses: number[] = []
  page.on('response', (res) => {
    if (new URL(res.url()).pathname === pathname && res.request().method() === method) statuses.push(res.status())
  })
  return statuses
}

beforeAll(async () => {
  // A confirmation lasts seconds here, so the test can wait one out.
  server = await startAppServer({ users: [member], env: { CONFIRM_TTL: '3s' } })
  browser = await launchBrowser()
  page = browser.page
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('confirm it’s you in Chromium', () => {
  it('enables two-factor on a session no longer confirmed: the dialog, the password, then the set-up', async () => {
    await page.goto(at('/login'))
    await page.getByLabel('E-mail').fill(member.email)
    await page.getByLabel('Password').fill(member.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await page.goto(at('/settings/two-factor'))
    await waitUntilUnconfirmed(page, server.url)

    const enabling = answersOf('/api/account/two-factor')
    await page.getByRole('button', { name: 'Enable', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' })
    await dialog.getByLabel('Password').waitFor()
    expect(enabling).toEqual([403])
    fs.mkdirSync(screenshotDir, { recursive: true })
    await page.screenshot({ path: path.join(screenshotDir, 'confirm-its-you.png'), fullPage: true })

    await dialog.getByLabel('Password').fill('not-the-password')
    await dialog.getByRole('button', { name: 'Confirm', exact: true }).click()
    // Refused in the field, emptied for another try; the dialog stays.
    await dialog.locator('input[name=password][aria-invalid=true]').waitFor()
    expect(await dialog.getByLabel('Password').inputValue()).toBe('')
    expect(enabling).toEqual([403])

    await dialog.getByLabel('Password').fill(member.password)
    await dialog.getByRole('button', { name: 'Confirm', exact: true }).click()
    await dialog.waitFor({ state: 'hidden' })
    const secret = (await page.getByTestId('two-factor-secret').textContent())!.trim()
    expect(enabling).toEqual([403, 200])

    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 })
    await page.getByLabel('Code from the app').fill(totp.generate())
    await page.getByRole('button', { name: 'Confirm', exact: true }).click()
    await page.getByText('Two-factor authentication is on.').waitFor()
  })
})
