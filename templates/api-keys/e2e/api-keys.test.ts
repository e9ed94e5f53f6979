import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { launchBrowser } from './support/browser'
import { waitUntilUnconfirmed } from './support/confirm-its-you'
import { screenshotDir } from './support/paths'

// A key made in the page, used from outside the browser (as a script would: no cookie, no CSRF),
// then revoked in the page: its next request is refused.
const member = { name: 'Kim Keys', email: 'kim@example.com', password: 'kim-password-1' }

let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page

const at = (pathname: string) => `${server.url}${pathname}`
/** `GET /api/auth/me` as a script sends it: the key in the Authorization header, nothing else. */
const meWith = (key: string) => fetch(at('/api/auth/me'), { headers: { Authorization: `Bearer ${key}` } })
/** The statuses of the page's `method` requests to a path matching `pathname`, as they come. */
const answersOf = (pathname: RegExp, method: string) => {
  const statuses: number[] = []
  page.on('response', (res) => {
    if (pathname.test(new URL(res.url()).pathname) && res.request().method() === method) statuses.push(res.status())
  })
  return statuses
}

beforeAll(async () => {
  // A confirmation lasts seconds here, so the test can wait one out and meet the dialog.
  server = await startAppServer({ users: [member], env: { CONFIRM_TTL: '3s' } })
  browser = await launchBrowser()
  page = browser.page
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe.sequential('API keys in Chromium', () => {
  let key = ''

  it('creates a key after “Confirm it’s you” and shows it once', async () => {
    await page.goto(at('/login'))
    await page.getByLabel('E-mail').fill(member.email)
    await page.getByLabel('Password').fill(member.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await page.goto(at('/settings/api-keys'))
    await page.getByText('You have no API keys yet.').waitFor()
    await waitUntilUnconfirmed(page, server.url)

    const creating = answersOf(/^\/api\/account\/api-keys$/, 'POST')
    await page.getByLabel('Name', { exact: true }).fill('Deploy script')
    await page.getByRole('checkbox', { name: 'Write' }).check()
    await page.getByLabel('Expires').selectOption({ label: 'In 30 days' })
    await page.getByRole('button', { name: 'Create key', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' })
    await dialog.getByLabel('Password').fill(member.password)
    await dialog.getByRole('button', { name: 'Confirm', exact: true }).click()
    await dialog.waitFor({ state: 'hidden' })

    const field = page.getByLabel('API key “Deploy script”')
    await field.waitFor()
    expect(creating).toEqual([403, 201])
    key = await field.inputValue()
    expect(key).toMatch(/^cca_[A-Za-z0-9]+_[A-Za-z0-9_-]{43}$/)
    expect(await field.evaluate((el) => el === document.activeElement && (el as HTMLInputElement).readOnly)).toBe(true)
    await page.getByRole('status').filter({ hasText: 'you won’t see it again' }).waitFor()
    fs.mkdirSync(screenshotDir, { recursive: true })
    await page.screenshot({ path: path.join(screenshotDir, 'api-key-created.png'), fullPage: true })

    await page.getByRole('button', { name: 'Copy', exact: true }).click()
    await page.getByText('Copied to the clipboard.').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key)

    const item = page.getByRole('listitem').filter({ hasText: 'Deploy script' })
    await expect.poll(() => item.getByRole('list', { name: 'Scopes' }).getByRole('listitem').allTextContents()).toEqual(['Read', 'Write'])
    expect(await item.textContent()).toContain('Never used')
    expect(await item.locator('code').textContent()).toBe(`${key.split('_').slice(0, 2).join('_')}…`)
  })

  it('the key calls the API as its user, from outside the browser; the page then shows its last use', async () => {
    const answer = await meWith(key)
    expect(answer.status).toBe(200)
    expect(((await answer.json()) as { user: { email: string } }).user.email).toBe(member.email)

    await page.getByRole('button', { name: 'Done, I have stored it' }).click()
    await page.reload()
    const item = page.getByRole('listitem').filter({ hasText: 'Deploy script' })
    await item.getByText(/^Last used just now from /).waitFor()
    // Shown once: after a reload the page has no way to show it again.
    expect(await page.content()).not.toContain(key.split('_')[2])
  })

  it('revoking it in the page, after asking, makes its next request a 401', async () => {
    const revoking = answersOf(/^\/api\/account\/api-keys\/[^/]+$/, 'DELETE')
    await page.getByRole('button', { name: 'Revoke Deploy script' }).click()
    const dialog = page.getByRole('dialog', { name: 'Revoke API key' })
    await dialog.getByText('stops working at once').waitFor()
    await dialog.getByRole('button', { name: 'Revoke key', exact: true }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('status').filter({ hasText: 'Key “Deploy script” revoked.' }).waitFor()
    await page.getByText('You have no API keys yet.').waitFor()
    expect(revoking).toEqual([204])

    const answer = await meWith(key)
    expect(answer.status).toBe(401)
    expect(await answer.json()).toEqual({ message: 'Unauthenticated.' })
  })
})
