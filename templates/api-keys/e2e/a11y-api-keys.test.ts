import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { axeViolations } from './support/axe'
import { launchBrowser } from './support/browser'
import { focused, tabTo } from './support/keyboard'

// The API keys page through axe-core (WCAG 2.2 A/AA, both themes, desktop and phone), and a key
// made, copied and revoked by keyboard alone.
const member = { name: 'Abe Access', email: 'abe@example.com', password: 'abe-password-1' }

let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page

const at = (pathname: string) => `${server.url}${pathname}`
const noViolations = async (name: string) => expect(await axeViolations(page, name)).toEqual([])

beforeAll(async () => {
  server = await startAppServer({ users: [member] })
  browser = await launchBrowser()
  page = browser.page
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe.sequential('API keys: WCAG 2.2 A/AA (axe-core) and the keyboard', () => {
  // Each state is four scans (two themes, two sizes): a few states per test, within its time.
  it('the page empty, and with an error', async () => {
    await page.goto(at('/login'))
    await page.getByLabel('E-mail').fill(member.email)
    await page.getByLabel('Password').fill(member.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await page.getByRole('banner').getByRole('link', { name: 'Settings' }).click()
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API keys' }).click()
    await page.getByText('You have no API keys yet.').waitFor()
    await noViolations('API keys, empty')

    await page.getByRole('button', { name: 'Create key', exact: true }).click()
    await page.getByRole('main').getByRole('alert').first().waitFor()
    await noViolations('API keys, a name missing')
  })

  it('the new key shown, then listed', async () => {
    await page.getByLabel('Name', { exact: true }).fill('Nightly export')
    await page.getByRole('button', { name: 'Create key', exact: true }).click()
    await page.getByLabel('API key “Nightly export”').waitFor()
    await noViolations('API keys, the new key shown')

    await page.getByRole('button', { name: 'Done, I have stored it' }).click()
    await page.getByLabel('API key “Nightly export”').waitFor({ state: 'detached' })
    await noViolations('API keys, one key listed')
  })

  it('a key being renamed, and the revoke dialog', async () => {
    await page.getByRole('button', { name: 'Rename Nightly export' }).click()
    await page.getByRole('button', { name: 'Save', exact: true }).waitFor()
    await noViolations('API keys, renaming')
    await page.getByRole('button', { name: 'Cancel', exact: true }).click()

    await page.getByRole('button', { name: 'Revoke Nightly export' }).click()
    await page.getByRole('dialog', { name: 'Revoke API key' }).waitFor()
    await noViolations('API keys, revoke dialog')
    await page.getByRole('dialog', { name: 'Revoke API key' }).getByRole('button', { name: 'Cancel' }).click()
  })

  it('makes, copies, stores and revokes a key by keyboard alone, with visible focus', async () => {
    await page.goto(at('/settings/api-keys'))
    await page.getByRole('button', { name: 'Revoke Nightly export' }).waitFor()

    expect(await tabTo(page, 'Name')).toEqual([])
    await page.keyboard.type('Keyboard key')
    // Into the scopes: Read is ticked already; Space ticks Write.
    expect(await tabTo(page, 'Write')).toEqual([])
    await page.keyboard.press('Space')
    expect(await tabTo(page, 'Expires')).toEqual([])
    await page.keyboard.press('ArrowDown')
    expect(await tabTo(page, 'Create key')).toEqual([])
    await page.keyboard.press('Enter')

    // Focus lands on the new key, selected, with a ring.
    await expect.poll(async () => (await focused(page))?.name).toBe('API key “Keyboard key”')
    expect((await focused(page))?.ring).not.toBeNull()
    expect(await page.evaluate(() => {
      const input = document.activeElement as HTMLInputElement
      return input.selectionStart === 0 && input.selectionEnd === input.value.length
    })).toBe(true)
    const key = await page.getByLabel('API key “Keyboard key”').inputValue()

    expect(await tabTo(page, 'Copy')).toEqual([])
    await page.keyboard.press('Enter')
    await page.getByText('Copied to the clipboard.').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key)
    expect(await tabTo(page, 'Done, I have stored it')).toEqual([])
    await page.keyboard.press('Enter')
    await expect.poll(async () => (await focused(page))?.name).toBe('API keys')

    expect(await tabTo(page, 'Revoke Keyboard key')).toEqual([])
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Revoke API key' })
    await dialog.waitFor()
    await expect.poll(async () => (await focused(page))?.inDialog).toBe(true)
    expect(await tabTo(page, 'Revoke key')).toEqual([])
    await page.keyboard.press('Enter')
    await page.getByRole('status').filter({ hasText: 'Key “Keyboard key” revoked.' }).waitFor()
    await expect.poll(async () => (await focused(page))?.name).toBe('API keys')
  })
})
