import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { launchBrowser } from './support/browser'
import { mailTo, startMailServer, type MailServer, type ReceivedMail } from '../server/tests/helpers/mail'
import { screenshotDir } from './support/paths'

type Browser = Awaited<ReturnType<typeof launchBrowser>>

const admin = { name: 'Ada Admin', email: 'admin@example.com', password: 'admin-password-1', role: 'admin' as const }
const member = { name: 'Mia Member', email: 'mia@example.com', password: 'first-password-1' }
const otto = { name: 'Otto Other', email: 'otto@example.com', password: 'otto-password-1' }
// What the member's account holds as the tests change it.
const account = { ...member }

let mailbox: MailServer
let server: AppServer
let browser: Browser
let page: Page
/** A second device of the same person, started when a test needs one. */
let second: Browser | undefined

const at = (pathname: string) => `${server.url}${pathname}`
const sessionItems = () => page.locator('.session-list > li')
const focusedInside = (p: Page, selector: string) =>
  p.evaluate((s) => !!document.activeElement?.closest(s), selector)

/** The confirmation link of the e-mail change, as mailed to the new address. */
function confirmLink(mail: ReceivedMail): string {
  const match = /(https?:\/\/[^\s"<]+\/confirm-email\?token=[^\s"<&]+)/.exec(mail.body)
  if (!match) throw new Error(`No confirm-email link in:\n${mail.body}`)
  return match[1]!
}

async function shot(name: string, on: Page = page) {
  fs.mkdirSync(screenshotDir, { recursive: true })
  await on.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true })
}

async function logIn(on: Page, email: string, password: string) {
  await on.goto(at('/login'))
  await on.getByLabel('E-mail').fill(email)
  await on.getByLabel('Password').fill(password)
  await on.getByRole('button', { name: 'Log in' }).click()
  await on.waitForURL((url) => url.pathname === '/dashboard')
}

/** A login that must fail: the page stays and says why under the e-mail field. */
async function logInFails(on: Page, email: string, password: string) {
  await on.goto(at('/login'))
  await on.getByLabel('E-mail').fill(email)
  await on.getByLabel('Password').fill(password)
  const answer = on.waitForResponse((res) => new URL(res.url()).pathname === '/api/auth/login')
  await on.getByRole('button', { name: 'Log in' }).click()
  expect((await answer).status()).toBe(422)
  await on.getByRole('main').getByRole('alert').first().waitFor()
  expect(new URL(on.url()).pathname).toBe('/login')
}

async function logOut(on: Page = page) {
  await on.getByRole('banner').getByRole('button', { name: 'Log out' }).click()
  await on.waitForURL((url) => url.pathname === '/login')
}

async function openSection(name: string, pathname: string) {
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name, exact: true }).click()
  await page.waitForURL((url) => url.pathname === pathname)
}

async function startSecondDevice(user: { email: string; password: string }) {
  second = await launchBrowser()
  await logIn(second.page, user.email, user.password)
  return second.page
}

async function closeSecondDevice() {
  await second?.close()
  second = undefined
}

beforeAll(async () => {
  mailbox = await startMailServer()
  server = await startAppServer({ smtpUrl: mailbox.url, users: [admin, member, otto] })
  browser = await launchBrowser()
  page = browser.page
})

afterAll(async () => {
  await second?.close()
  await browser?.close()
  await server?.stop()
  await mailbox?.close()
})

describe.sequential('account self-service in Chromium', () => {
  it('opens the settings from the header, at the profile', async () => {
    await logIn(page, account.email, account.password)
    await page.getByRole('banner').getByRole('link', { name: 'Settings' }).click()
    await page.waitForURL((url) => url.pathname === '/settings/profile')
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor()
    const current = page.getByRole('navigation', { name: 'Settings' }).locator('[aria-current="page"]')
    expect(await current.textContent()).toBe('Profile')
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe(member.name)
    await shot('settings-profile')
  })

  it('changes the name', async () => {
    account.name = 'Mia Renamed'
    await page.getByLabel('Name', { exact: true }).fill(account.name)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByText('Saved.').waitFor()
    await page.getByRole('banner').getByText(account.name).waitFor()
    await page.reload()
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe(account.name)
  })

  it('changes the password, after which the old one no longer logs in', async () => {
    await openSection('Password', '/settings/password')
    const old = account.password
    account.password = 'second-password-2'
    await page.getByLabel('Current password').fill(old)
    await page.getByLabel('New password', { exact: true }).fill(account.password)
    await page.getByLabel('Confirm new password').fill(account.password)
    await shot('settings-password')
    const answer = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/account/password')
    await page.getByRole('button', { name: 'Change password' }).click()
    expect((await answer).status()).toBe(200)
    await page.getByText('Saved.').waitFor()
    expect(await page.getByLabel('Current password').inputValue()).toBe('')

    // This session stays signed in.
    await page.reload()
    await page.getByRole('heading', { name: 'Change password' }).waitFor()
    expect(new URL(page.url()).pathname).toBe('/settings/password')

    await logOut()
    await logInFails(page, account.email, old)
    await logIn(page, account.email, account.password)
  })

  it('lists the sessions and signs out another device, which lands on /login at its next step', async () => {
    const other = await startSecondDevice(account)
    await page.goto(at('/settings/sessions'))
    await expect.poll(() => sessionItems().count()).toBe(2)
    expect(await sessionItems().first().textContent()).toContain('This device')
    expect(await sessionItems().filter({ hasText: 'This device' }).getByRole('button', { name: 'Sign out' }).count()).toBe(0)
    await shot('settings-sessions')

    const answer = page.waitForResponse((res) => new URL(res.url()).pathname.startsWith('/api/account/sessions/'))
    await sessionItems().filter({ hasNotText: 'This device' }).getByRole('button', { name: 'Sign out' }).click()
    expect((await answer).status()).toBe(204)
    await expect.poll(() => sessionItems().count()).toBe(1)

    // The other browser still shows its page; the first request it makes finds the session gone.
    await other.getByRole('banner').getByRole('link', { name: 'Settings' }).click()
    await other.waitForURL((url) => url.pathname === '/settings/profile')
    await other.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Sessions' }).click()
    await other.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirect') === '/settings/sessions')
    await closeSecondDevice()
  })

  it('signs out every other session after asking for the password in a dialog', async () => {
    const other = await startSecondDevice(account)
    await page.reload()
    await expect.poll(() => sessionItems().count()).toBe(2)

    const opener = page.getByRole('button', { name: 'Sign out all other sessions' })
    const dialog = page.getByRole('dialog', { name: 'Sign out all other sessions' })
    await opener.click()
    await dialog.waitFor()
    expect(await dialog.getAttribute('aria-modal')).toBe('true')
    await expect.poll(() => dialog.getByLabel('Password').evaluate((el) => el === document.activeElement)).toBe(true)
    // Tab goes round inside the dialog; Escape closes it and focus goes back to the button.
    for (let i = 0; i < 4; i++) await page.keyboard.press('Tab')
    expect(await focusedInside(page, 'dialog')).toBe(true)
    await page.keyboard.press('Shift+Tab')
    expect(await focusedInside(page, 'dialog')).toBe(true)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true)

    await opener.click()
    await dialog.getByLabel('Password').fill('not-my-password')
    const wrong = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/account/sessions' && res.request().method() === 'DELETE')
    await dialog.getByRole('button', { name: 'Sign out other sessions' }).click()
    expect((await wrong).status()).toBe(422)
    await dialog.getByRole('alert').waitFor()
    await shot('settings-sessions-dialog')

    await dialog.getByLabel('Password').fill(account.password)
    await dialog.getByRole('button', { name: 'Sign out other sessions' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByText('Every other session has been signed out.').waitFor()
    await expect.poll(() => sessionItems().count()).toBe(1)

    await other.reload()
    await other.waitForURL((url) => url.pathname === '/login')
    await closeSecondDevice()
  })

  it('changes the e-mail address through the link mailed to the new one', async () => {
    const old = account.email
    account.email = 'mia.new@example.com'
    await page.goto(at('/settings/profile'))
    await page.getByLabel('New e-mail').fill(account.email)
    await page.getByLabel('Current password').fill(account.password)
    // The link goes to the new address; the old one hears of it too.
    const mails = Promise.all([
      mailbox.next((m) => mailTo(account.email)(m) && m.body.includes('/confirm-email?'), 15_000),
      mailbox.next(mailTo(old), 15_000),
    ])
    await page.getByRole('button', { name: 'Send confirmation link' }).click()
    await page.getByText(`Pending: check your inbox at ${account.email}`).waitFor()
    // Nothing changes before the link is opened.
    expect(await page.getByRole('main').textContent()).toContain(`Your address is ${old}`)

    const link = confirmLink((await mails)[0])
    expect(link.startsWith(`${server.url}/confirm-email?`)).toBe(true)

    await page.goto(link)
    await page.getByText(`Your e-mail address is now ${account.email}.`).waitFor()
    await shot('confirm-email')
    await page.getByRole('link', { name: 'Back to your settings' }).click()
    await page.waitForURL((url) => url.pathname === '/settings/profile')
    expect(await page.getByRole('main').textContent()).toContain(`Your address is ${account.email}`)

    // A link works once.
    await page.goto(link)
    await page.getByRole('main').getByRole('alert').waitFor()

    await logOut()
    await logInFails(page, old, account.password)
    await logIn(page, account.email, account.password)
  })

  it('fits the settings pages on a phone-sized screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    for (const section of ['profile', 'password', 'sessions', 'delete-account']) {
      await page.goto(at(`/settings/${section}`))
      await page.getByRole('navigation', { name: 'Settings' }).waitFor()
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(overflow, section).toBeLessThanOrEqual(0)
    }
    await page.goto(at('/settings/sessions'))
    await expect.poll(() => sessionItems().count()).toBe(1)
    await shot('settings-sessions-mobile')
    await page.setViewportSize({ width: 1280, height: 800 })
    await logOut()
  })

  it('lets an admin change a role and sign a user out everywhere', async () => {
    const other = await startSecondDevice(otto)
    await logIn(page, admin.email, admin.password)
    await page.goto(at('/users'))
    const ottoRole = page.getByRole('combobox', { name: `Role of ${otto.name}` })
    await ottoRole.waitFor()
    expect(await ottoRole.inputValue()).toBe('user')
    await ottoRole.selectOption('admin')
    await page.getByText(`${otto.name} is now an admin.`).waitFor()
    // Otto's very next request sees the new role.
    await other.reload()
    await other.getByRole('banner').getByRole('link', { name: 'Users', exact: true }).waitFor()

    // An admin cannot demote itself: the select goes back.
    const ownRole = page.getByRole('combobox', { name: `Role of ${admin.name}` })
    const refused = page.waitForResponse((res) => res.request().method() === 'PATCH')
    await ownRole.selectOption('user')
    expect((await refused).status()).toBe(422)
    await page.locator('.flash.alert--error').waitFor()
    expect(await ownRole.inputValue()).toBe('admin')

    await page.getByRole('button', { name: `Sign out everywhere: ${otto.name}` }).click()
    const dialog = page.getByRole('dialog', { name: `Sign out ${otto.name} everywhere?` })
    await dialog.waitFor()
    await shot('users-sign-out-everywhere')
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click()
    await page.getByText(`${otto.name} has been signed out everywhere.`).waitFor()
    await other.reload()
    await other.waitForURL((url) => url.pathname === '/login')
    await closeSecondDevice()
    await logOut()
  })

  it('deletes the account', async () => {
    await logIn(page, account.email, account.password)
    await page.goto(at('/settings'))
    await openSection('Delete account', '/settings/delete-account')
    await page.getByRole('button', { name: 'Delete account' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' })
    await dialog.getByLabel('Password').fill(account.password)
    await shot('settings-delete-account')
    const answer = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/account' && res.request().method() === 'DELETE')
    await dialog.getByRole('button', { name: 'Delete my account' }).click()
    expect((await answer).status()).toBe(204)
    await page.waitForURL((url) => url.pathname === '/login')
    await page.getByText('Your account has been deleted.').waitFor()
    await page.goto(at('/settings/profile'))
    await page.waitForURL((url) => url.pathname === '/login')
    await logInFails(page, account.email, account.password)
  })
})
