import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { launchBrowser } from './support/browser'
import { waitUntilUnconfirmed } from './support/confirm-its-you'
import { focused, tabThrough, tabTo } from './support/keyboard'

// Login, the users table and the dialogs by keyboard alone: every stop shows its focus, dialogs
// keep focus inside and give it back, errors are announced and tied to their fields.
const admin = { name: 'Ada Admin', email: 'admin@example.com', password: 'admin-password-1', role: 'admin' as const }
const members = ['Bea', 'Cid', 'Dot', 'Eve', 'Flo'].map((name) => ({
  name: `${name} Member`,
  email: `${name.toLowerCase()}@example.com`,
  password: 'member-password-1',
}))

let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page

const at = (pathname: string) => `${server.url}${pathname}`
const focusName = async () => (await focused(page))?.name
const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement)

/** An error shown for `field`: announced (role=alert) and named by the field's aria-describedby. */
async function linkedError(field: Locator) {
  expect(await field.getAttribute('aria-invalid')).toBe('true')
  const ids = (await field.getAttribute('aria-describedby'))?.split(' ') ?? []
  const errors = await Promise.all(ids.map((id) => page.locator(`[id="${id}"][role="alert"]`).count()))
  expect(errors.some((count) => count === 1), `no role=alert among ${ids.join(', ')}`).toBe(true)
}

/** Tab and Shift+Tab, round and round past either end, never leave the open dialog. */
async function focusStaysIn(stops: number) {
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < stops + 2; i++) {
      await page.keyboard.press(key)
      const now = await focused(page)
      expect(now?.inDialog, `${key} ×${i + 1} left the dialog for "${now?.name}"`).toBe(true)
      expect(now?.ring, `${key} ×${i + 1}: "${now?.name}" shows no focus`).not.toBeNull()
    }
  }
}

/**
 * A password dialog by keyboard: focus starts in the field and stays inside, a wrong password
 * is announced at its field, which keeps focus, and Escape closes it.
 */
async function wrongPasswordThenEscape(dialog: Locator) {
  const password = dialog.getByLabel('Password')
  await expect.poll(() => isFocused(password)).toBe(true)
  await focusStaysIn(3)

  await password.focus()
  await page.keyboard.type('not-the-password')
  await page.keyboard.press('Enter')
  await dialog.getByRole('alert').first().waitFor()
  await linkedError(password)
  await expect.poll(() => isFocused(password)).toBe(true)

  await page.keyboard.press('Escape')
  await dialog.waitFor({ state: 'hidden' })
}

beforeAll(async () => {
  // A sign-in confirms the session for a second only, so the "Confirm it's you" dialog comes soon.
  server = await startAppServer({ users: [admin, ...members], env: { CONFIRM_TTL: '1s' } })
  browser = await launchBrowser()
  page = browser.page
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe.sequential('by keyboard alone', () => {
  it('logs in: visible focus at every stop, a wrong password announced at its field', async () => {
    await page.goto(at('/login'))
    const email = page.getByLabel('E-mail')
    await email.waitFor()
    await expect.poll(focusName).toBe('E-mail')
    expect((await focused(page))?.ring).not.toBeNull()

    await page.keyboard.type(admin.email)
    expect(await tabTo(page, 'Password')).toEqual([])
    await page.keyboard.type('not-the-password')
    await page.keyboard.press('Enter')
    await page.getByRole('main').getByRole('alert').first().waitFor()
    await linkedError(email)

    // Every control of the form in turn, to the button, each with its focus ring.
    await email.focus()
    expect(await tabTo(page, 'Log in')).toEqual([])
    await page.locator('input[name=password]').focus()
    await page.keyboard.type(admin.password)
    await page.keyboard.press('Enter')
    await page.waitForURL((url) => url.pathname === '/dashboard')
  })

  it('shows focus at every stop of the users page, from the header to the pagination', async () => {
    await page.goto(at('/users?size=5'))
    await page.getByRole('button', { name: 'Next page' }).waitFor()
    const { stops, unseen } = await tabThrough(page)
    // Header links, theme, log out, search, filters, delete, table, pagination.
    expect(stops).toBeGreaterThan(25)
    expect(unseen).toEqual([])
  })

  it('works the users table: sort, select, page, and a dialog that keeps and gives back focus', async () => {
    const search = page.getByRole('searchbox', { name: 'Search' })
    await search.focus()

    // Sort by name from its header button.
    expect(await tabTo(page, 'Name')).toEqual([])
    const nameHeader = page.locator('thead th', { has: page.getByRole('button', { name: 'Name', exact: true }) })
    const before = await nameHeader.getAttribute('aria-sort')
    await page.keyboard.press('Enter')
    await expect.poll(() => nameHeader.getAttribute('aria-sort')).not.toBe(before)
    expect(await isFocused(page.getByRole('button', { name: 'Name', exact: true }))).toBe(true)

    // Tick a row with Space, then on to the next page.
    expect(await tabTo(page, 'Select row 2')).toEqual([])
    await page.keyboard.press('Space')
    expect(await page.getByRole('checkbox', { name: 'Select row 2' }).isChecked()).toBe(true)
    expect(await tabTo(page, 'Next page')).toEqual([])
    await page.keyboard.press('Enter')
    await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBe('2')
    await expect.poll(() => page.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page')

    // Back up to "Delete (1)": its dialog takes focus, keeps it, and Escape gives it back.
    const remove = page.getByRole('button', { name: 'Delete (1)' })
    expect(await tabTo(page, 'Delete (1)', 'Shift+Tab', 60)).toEqual([])
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Delete 1 user?' })
    await dialog.waitFor()
    await expect.poll(async () => (await focused(page))?.inDialog).toBe(true)
    await focusStaysIn(2)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    await expect.poll(() => isFocused(remove)).toBe(true)
  })

  it('the settings forms: focus at every stop, the password form sent by keyboard, its error at its field', async () => {
    for (const path of ['profile', 'password', 'sessions', 'security', 'delete-account']) {
      await page.goto(at(`/settings/${path}`))
      await page.getByRole('navigation', { name: 'Settings' }).waitFor()
      await page.getByRole('main').getByRole('heading', { level: 2 }).first().waitFor()
      const { stops, unseen } = await tabThrough(page)
      expect(stops, path).toBeGreaterThan(5)
      expect(unseen, path).toEqual([])
    }

    await page.goto(at('/settings/password'))
    const current = page.getByLabel('Current password')
    await current.focus()
    await page.keyboard.type('not-the-password')
    expect(await tabTo(page, 'New password')).toEqual([])
    await page.keyboard.type('a-new-password-1')
    expect(await tabTo(page, 'Confirm new password')).toEqual([])
    await page.keyboard.type('a-new-password-1')
    await page.keyboard.press('Enter')
    await page.getByRole('main').getByRole('alert').first().waitFor()
    await linkedError(current)
  })

  it('a password dialog: focus kept inside, the error announced at its field, focus given back', async () => {
    await page.goto(at('/settings/delete-account'))
    const opener = page.getByRole('button', { name: 'Delete account' })
    await opener.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' })
    await dialog.waitFor()
    await wrongPasswordThenEscape(dialog)
    await expect.poll(() => isFocused(opener)).toBe(true)
  })

  it('"Confirm it’s you": asked for by a role change, focus kept inside, then back to the change', async () => {
    await waitUntilUnconfirmed(page, server.url)
    await page.goto(at('/users?sort=name'))
    const role = page.getByRole('combobox', { name: `Role of ${members[0]!.name}` })
    await role.focus()
    // A closed select changes with the arrow keys; the change is refused until it is confirmed.
    await page.keyboard.press('ArrowUp')
    const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' })
    await dialog.waitFor()
    await wrongPasswordThenEscape(dialog)
    await expect.poll(() => isFocused(role)).toBe(true)
    expect(await role.inputValue()).toBe('user')
  })
})
