import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { launchBrowser } from './support/browser'
import { screenshotDir } from './support/paths'

// The admin's table beyond paging: sort, filters, select all matching, the clamp after a delete.
const admin = { name: 'Ada Admin', email: 'admin@example.com', password: 'admin-password-1', role: 'admin' as const }
// Members 01–03 are admins too, 04–15 users: 16 accounts, 4 admins and 12 users.
const members = Array.from({ length: 15 }, (_, i) => {
  const n = String(i + 1).padStart(2, '0')
  return { name: `Member ${n}`, email: `member${n}@example.com`, password: 'member-password-1', role: i < 3 ? ('admin' as const) : ('user' as const) }
})

let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page

const at = (pathname: string) => `${server.url}${pathname}`
const query = () => Object.fromEntries(new URL(page.url()).searchParams)
const rowNames = async () => (await page.locator('tbody tr td:nth-child(3)').allTextContents()).map((name) => name.replace(/you$/, '').trim())
const summary = () => page.locator('.dt__info').textContent()
const header = (name: string) => page.locator('thead th', { has: page.getByRole('button', { name, exact: true }) })

async function shot(name: string) {
  fs.mkdirSync(screenshotDir, { recursive: true })
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true })
}

beforeAll(async () => {
  server = await startAppServer({ users: [admin, ...members] })
  browser = await launchBrowser()
  page = browser.page
  await page.goto(at('/login'))
  await page.getByLabel('E-mail').fill(admin.email)
  await page.getByLabel('Password').fill(admin.password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL((url) => url.pathname === '/dashboard')
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe.sequential('the users table in Chromium', () => {
  it('sorts by name from the header button, marking the header with aria-sort', async () => {
    await page.goto(at('/users?page=1&size=5&search='))
    await expect.poll(summary).toBe('Showing 1–5 of 16')
    await page.getByRole('button', { name: 'Name', exact: true }).click()
    await expect.poll(query).toEqual({ page: '1', size: '5', search: '', sort: 'name' })
    await expect.poll(rowNames).toEqual(['Ada Admin', 'Member 01', 'Member 02', 'Member 03', 'Member 04'])
    expect(await header('Name').getAttribute('aria-sort')).toBe('ascending')
    await page.getByRole('button', { name: 'Name', exact: true }).click()
    await expect.poll(query).toEqual({ page: '1', size: '5', search: '', sort: '-name' })
    await expect.poll(rowNames).toEqual(['Member 15', 'Member 14', 'Member 13', 'Member 12', 'Member 11'])
    expect(await header('Name').getAttribute('aria-sort')).toBe('descending')
    await shot('users-sorted')
  })

  it('keeps the sort across a reload, paging and back', async () => {
    await page.reload()
    await expect.poll(rowNames).toEqual(['Member 15', 'Member 14', 'Member 13', 'Member 12', 'Member 11'])
    expect(await header('Name').getAttribute('aria-sort')).toBe('descending')
    await page.getByRole('button', { name: 'Page 2' }).click()
    await expect.poll(query).toEqual({ page: '2', size: '5', search: '', sort: '-name' })
    await expect.poll(rowNames).toEqual(['Member 10', 'Member 09', 'Member 08', 'Member 07', 'Member 06'])
    await page.goBack()
    await expect.poll(query).toEqual({ page: '1', size: '5', search: '', sort: '-name' })
    await expect.poll(rowNames).toEqual(['Member 15', 'Member 14', 'Member 13', 'Member 12', 'Member 11'])
    await page.goBack()
    await expect.poll(query).toEqual({ page: '1', size: '5', search: '', sort: 'name' })
    await expect.poll(rowNames).toEqual(['Ada Admin', 'Member 01', 'Member 02', 'Member 03', 'Member 04'])
  })

  it('keeps the header row in view while the table scrolls', async () => {
    const position = await page.locator('thead th').first().evaluate((th) => getComputedStyle(th).position)
    expect(position).toBe('sticky')
  })

  it('filters by role, back at page 1, in one history entry', async () => {
    await page.getByRole('button', { name: 'Page 2' }).click()
    await expect.poll(query).toEqual({ page: '2', size: '5', search: '', sort: 'name' })
    await page.getByLabel('Role', { exact: true }).selectOption('admin')
    await expect.poll(query).toEqual({ page: '1', size: '5', search: '', sort: 'name', 'filter[role]': 'admin' })
    await expect.poll(rowNames).toEqual(['Ada Admin', 'Member 01', 'Member 02', 'Member 03'])
    await expect.poll(summary).toBe('Showing 1–4 of 4')
    await shot('users-filtered')
    await page.goBack()
    await expect.poll(query).toEqual({ page: '2', size: '5', search: '', sort: 'name' })
    expect(await page.getByLabel('Role', { exact: true }).inputValue()).toBe('')
  })

  it('selects all matching users across pages, deletes them after a dialog, and the emptied page clamps', async () => {
    // The users, on their last page: 12 of them, pages of 5, so page 3 holds two.
    await page.goto(at('/users?page=3&size=5&search=&sort=name&filter[role]=user'))
    await expect.poll(summary).toBe('Showing 11–12 of 12')
    await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check()
    await page.getByRole('button', { name: 'Select all 12 matching' }).click()
    await page.getByText('All 12 matching are selected.').waitFor()
    // Keep Member 15 (row 12).
    await page.getByRole('checkbox', { name: 'Select row 12' }).uncheck()
    await page.getByRole('button', { name: 'Delete (11)' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete 11 users?' })
    await dialog.waitFor()
    expect(await dialog.textContent()).toContain('except the 1 you unticked')
    await shot('users-delete-matching')
    const answer = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/users' && res.request().method() === 'DELETE')
    await dialog.getByRole('button', { name: 'Delete 11 users' }).click()
    const response = await answer
    expect(response.request().postDataJSON()).toEqual({ all: true, search: '', filter: { role: 'user' }, except: [16] })
    expect(await response.json()).toEqual({ deleted: 11 })
    await page.getByText('Deleted 11 users.').waitFor()
    // Page 3 is gone: the table moves to the new last page, in place of the empty one.
    await expect.poll(query).toEqual({ page: '1', size: '5', search: '', sort: 'name', 'filter[role]': 'user' })
    await expect.poll(rowNames).toEqual(['Member 15'])
    await expect.poll(summary).toBe('Showing 1–1 of 1')
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).isDisabled()).toBe(true)
  })

  it('shows "no matches" for a search that finds nobody, and clears it in one step', async () => {
    await page.getByRole('searchbox', { name: 'Search' }).fill('nobody at all')
    await page.getByText('No matches.').waitFor()
    await page.getByRole('button', { name: 'Clear search and filters' }).click()
    await expect.poll(query).toEqual({ page: '1', size: '5', search: '', sort: 'name' })
    await expect.poll(summary).toBe('Showing 1–5 of 5')
  })
})
