import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { axeViolations } from './support/axe'
import { launchBrowser } from './support/browser'
import { screenshotDir } from './support/paths'

// Cap's widget in a real browser, against the app's own /api/captcha: refused without an answer,
// the widget shown, solved in the page's workers (under the pages' CSP), the form sent again.
const newcomer = { name: 'Cara Cap', email: 'cara@example.com', password: 'cara-password-1' }

let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page

/** The statuses of the page's `method` requests to `pathname`, as they come; not the fields' live checks (Precognition). */
const answersOf = (pathname: string, method: string) => {
  const statuses: number[] = []
  page.on('response', async (res) => {
    const request = res.request()
    if (new URL(res.url()).pathname !== pathname || request.method() !== method) return
    if (!(await request.allHeaders()).precognition) statuses.push(res.status())
  })
  return statuses
}

beforeAll(async () => {
  server = await startAppServer({ users: [], env: { CAPTCHA_PROVIDER: 'cap' } })
  browser = await launchBrowser()
  page = browser.page
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('the CAPTCHA in Chromium', () => {
  it('registration asks for it, Cap solves it in the page, and the same form goes through', async () => {
    const errors: string[] = []
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
    const registering = answersOf('/api/auth/register', 'POST')
    await page.goto(`${server.url}/register`)
    await page.getByLabel('Name').fill(newcomer.name)
    await page.getByLabel('E-mail').fill(newcomer.email)
    await page.getByLabel('Password', { exact: true }).fill(newcomer.password)
    await page.getByLabel('Confirm password').fill(newcomer.password)
    await page.getByRole('button', { name: 'Create account' }).click()

    const challenge = page.getByRole('group', { name: 'Human check' })
    await challenge.locator('cap-widget').waitFor()
    expect(registering).toEqual([422])
    fs.mkdirSync(screenshotDir, { recursive: true })
    await page.screenshot({ path: path.join(screenshotDir, 'captcha-asked.png'), fullPage: true })
    // The page with the widget shown holds WCAG 2.2 A/AA, and the widget is reached and started by keyboard.
    expect(await axeViolations(page, 'captcha-asked')).toEqual([])
    const start = challenge.getByRole('button').first()
    await start.focus()
    await page.keyboard.press('Enter')

    // Signed in (201) or, with e-mail verification, told to check the inbox (202).
    await Promise.any([page.waitForURL((url) => url.pathname === '/dashboard'), page.getByRole('heading', { name: 'Check your inbox' }).waitFor()])
    expect(registering).toHaveLength(2)
    expect([201, 202]).toContain(registering[1])
    // Nothing the CSP refused (a worker, a blob:) on the way.
    expect(errors.filter((text) => /Content Security Policy|Refused/.test(text))).toEqual([])
  }, 60_000)
})
