import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { axeViolations } from './support/axe'
import { launchBrowser } from './support/browser'
import { waitUntilUnconfirmed } from './support/confirm-its-you'

// Base's pages through axe-core (WCAG 2.2 A/AA, both themes, desktop and phone); each feature
// layer scans its own pages in an e2e file of its own. One browser and one session throughout:
// the signed-out pages first, then the signed-in ones as an admin.
const admin = { name: 'Ada Admin', email: 'admin@example.com', password: 'admin-password-1', role: 'admin' as const }
const members = [
  { name: 'Mia Member', email: 'mia@example.com', password: 'mia-password-1' },
  { name: 'Otto Other', email: 'otto@example.com', password: 'otto-password-1' },
]

let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page

const at = (pathname: string) => `${server.url}${pathname}`
const heading = (name: string) => page.getByRole('heading', { level: 1, name }).waitFor()
const noViolations = async (name: string) => expect(await axeViolations(page, name)).toEqual([])

async function open(pathname: string, title: string) {
  await page.goto(at(pathname))
  await heading(title)
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

describe.sequential('WCAG 2.2 A/AA (axe-core) on every page of base, both themes, desktop and phone', () => {
  it('reports what it should: text in the colour of a border, and a field without a label', async () => {
    await open('/login', 'Log in')
    await page.evaluate(() => {
      const planted = document.createElement('div')
      planted.id = 'planted'
      const text = planted.appendChild(document.createElement('p'))
      text.textContent = 'unreadable'
      // Through the CSSOM: the Content-Security-Policy drops style attributes.
      text.style.color = 'var(--line)'
      planted.appendChild(document.createElement('input'))
      document.querySelector('main h1')!.after(planted)
    })
    const found = await axeViolations(page, 'planted')
    await page.evaluate(() => document.getElementById('planted')!.remove())
    for (const where of ['light, desktop', 'dark, desktop', 'light, phone', 'dark, phone']) {
      expect(found.some((line) => line.startsWith(`planted (${where}): color-contrast `))).toBe(true)
      expect(found.some((line) => line.startsWith(`planted (${where}): label `))).toBe(true)
    }
  })

  it('login, with and without errors', async () => {
    await open('/login', 'Log in')
    await noViolations('login')
    await page.getByLabel('E-mail').fill(admin.email)
    await page.getByLabel('Password').fill('not-the-password')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.getByRole('main').getByRole('alert').first().waitFor()
    await noViolations('login with an error')
  })

  it('registration', async () => {
    await open('/register', 'Create an account')
    await noViolations('register')
  })

  it('forgot and reset password', async () => {
    await open('/forgot-password', 'Forgot your password?')
    await noViolations('forgot password')
    await open('/reset-password', 'Choose a new password')
    await noViolations('reset password without a link')
    await open(`/reset-password?token=${'0'.repeat(40)}&email=mia%40example.com`, 'Choose a new password')
    await noViolations('reset password')
  })

  it('verify and confirm e-mail', async () => {
    await open('/verify-email', 'Verify your e-mail')
    await noViolations('verify e-mail')
    await open(`/verify-email?email=mia%40example.com&token=${'0'.repeat(40)}&choose=1`, 'Verify your e-mail')
    await noViolations('verify e-mail, choosing a password')
    await page.goto(at(`/confirm-email?token=${'0'.repeat(40)}`))
    await page.getByRole('main').getByRole('alert').first().waitFor()
    await noViolations('confirm e-mail, a bad link')
  })

  it('not found', async () => {
    await page.goto(at('/no-such-page'))
    await page.getByRole('heading', { level: 1 }).waitFor()
    await noViolations('not found')
  })

  it('dashboard, signed in', async () => {
    await page.goto(at('/login'))
    await page.getByLabel('E-mail').fill(admin.email)
    await page.getByLabel('Password').fill(admin.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await page.getByRole('heading', { level: 1 }).waitFor()
    await noViolations('dashboard')
  })

  it('every settings page of base', async () => {
    for (const [path, title] of [
      ['profile', 'Profile'],
      ['password', 'Password'],
      ['sessions', 'Sessions'],
      ['security', 'Security'],
      ['delete-account', 'Delete account'],
    ]) {
      await page.goto(at(`/settings/${path}`))
      await page.getByRole('heading', { name: title }).first().waitFor()
      await noViolations(`settings: ${title}`)
    }
  })

  it('a password dialog, with its error', async () => {
    await page.goto(at('/settings/delete-account'))
    await page.getByRole('button', { name: 'Delete account' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Password').fill('not-the-password')
    await dialog.getByRole('button', { name: /delete/i }).click()
    await dialog.getByRole('alert').waitFor()
    await noViolations('delete account dialog with an error')
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
  })

  it('the admin users table, with a selection and its dialog', async () => {
    await open('/users', 'Users')
    await page.locator('tbody tr').first().waitFor()
    await noViolations('users')
    await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check()
    await noViolations('users, all selected')
    await page.getByRole('button', { name: /^Delete \(\d+\)$/ }).click()
    const dialog = page.getByRole('dialog')
    await dialog.waitFor()
    await noViolations('users, delete dialog')
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
  })

  it('the "Confirm it’s you" dialog a role change asks for, and the flash message after it', async () => {
    await waitUntilUnconfirmed(page, server.url)
    await page.getByRole('combobox', { name: `Role of ${members[0]!.name}` }).selectOption('admin')
    const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' })
    await dialog.getByLabel('Password').waitFor()
    await noViolations('confirm it’s you')
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    // Turned down, the change is undone and a flash message says why.
    await page.getByRole('main').getByRole('status').filter({ has: page.getByRole('button', { name: 'Dismiss' }) }).waitFor()
    await noViolations('a flash message')
  })

  it('the admin webhooks page', async () => {
    await open('/admin/webhooks', 'Webhooks')
    await page.getByText('No endpoints yet.').waitFor()
    await noViolations('webhooks')
  })
})
