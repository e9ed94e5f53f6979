import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { launchBrowser } from './support/browser'
import { projectRoot } from './support/paths'

// What a browser downloads: the entry and its CSS first, enough for the login page; each other
// page when it is first opened, the pages' texts with the first of them; and axios only for an
// upload with progress, which no page here makes.
const admin = { name: 'Ada Admin', email: 'admin@example.com', password: 'admin-password-1', role: 'admin' as const }
const dist = path.join(projectRoot, 'dist', 'client')
/** A string only axios' code holds: its error class's name. */
const holdsAxios = (asset: string) => fs.readFileSync(path.join(dist, asset), 'utf8').includes('AxiosError')
/** A string only the pages' English texts hold (a line of the dashboard's). */
const holdsPageTexts = (asset: string) => fs.readFileSync(path.join(dist, asset), 'utf8').includes('Member since')
/** The scripts and styles index.html names: the first load. */
const firstLoad = [...fs.readFileSync(path.join(dist, 'index.html'), 'utf8').matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]!)

let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page
const loaded: string[] = []

beforeAll(async () => {
  server = await startAppServer({ users: [admin] })
  browser = await launchBrowser()
  page = browser.page
  page.on('response', (response) => {
    const { pathname } = new URL(response.url())
    if (pathname.startsWith('/assets/')) loaded.push(pathname.slice(1))
  })
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('the weight of a page load', () => {
  it('builds axios into a chunk of its own, which index.html does not name', () => {
    const withAxios = fs.readdirSync(path.join(dist, 'assets')).map((file) => `assets/${file}`).filter(holdsAxios)
    expect(withAxios).toHaveLength(1)
    expect(firstLoad).not.toContain(withAxios[0])
    expect(firstLoad.filter(holdsAxios)).toEqual([])
  })

  it('loads the login page with what index.html names and nothing else', async () => {
    await page.goto(`${server.url}/login`)
    await page.getByRole('heading', { name: 'Log in' }).waitFor()
    expect([...new Set(loaded)].sort()).toEqual([...firstLoad].sort())
  })

  it('loads the users page when an admin opens it, and never axios', async () => {
    await page.getByLabel('E-mail').fill(admin.email)
    await page.getByLabel('Password').fill(admin.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await page.getByText('Member since').waitFor()
    const dashboard = loaded.filter((asset) => !firstLoad.includes(asset))
    expect(dashboard.filter(holdsPageTexts)).toHaveLength(1)
    expect(firstLoad.filter(holdsPageTexts)).toEqual([])
    await page.getByRole('banner').getByRole('link', { name: 'Users', exact: true }).click()
    await page.getByRole('heading', { name: 'Users' }).waitFor()
    await page.locator('tbody tr').first().waitFor()
    const users = loaded.filter((asset) => !firstLoad.includes(asset) && !dashboard.includes(asset))
    expect(users.some((asset) => asset.endsWith('.js'))).toBe(true)
    // The pages' texts came once, with the dashboard.
    expect(loaded.filter(holdsPageTexts)).toHaveLength(1)
    expect(loaded.filter(holdsAxios)).toEqual([])
  })
})
