import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { launchBrowser } from './support/browser'
import { projectRoot } from './support/paths'

const tokens = fs.readFileSync(path.join(projectRoot, 'client/src/assets/tokens.css'), 'utf8')
/** The page background of a theme as tokens.css defines it, in the form getComputedStyle gives. */
function background(theme: 'light' | 'dark'): string {
  const block = theme === 'light' ? /^:root \{([^}]*)\}/m : /^:root\[data-theme='dark'\] \{([^}]*)\}/m
  const hex = /--bg: #([0-9a-f]{6});/.exec(block.exec(tokens)![1]!)![1]!
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16))
  return `rgb(${r}, ${g}, ${b})`
}

let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page
const blocked: string[] = []

const pageBackground = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)
const dataTheme = () => page.evaluate(() => document.documentElement.dataset.theme ?? null)
const themeSwitch = () => page.getByRole('banner').getByRole('combobox', { name: 'Theme' })

beforeAll(async () => {
  server = await startAppServer({ users: [] })
  browser = await launchBrowser()
  page = browser.page
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) blocked.push(message.text())
  })
  await page.emulateMedia({ colorScheme: 'dark' })
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('themes', () => {
  it('follows a system that prefers dark until the visitor chooses', async () => {
    await page.goto(`${server.url}/login`)
    await page.getByRole('heading', { name: 'Log in' }).waitFor()
    expect(await themeSwitch().inputValue()).toBe('system')
    expect(await dataTheme()).toBeNull()
    expect(await pageBackground()).toBe(background('dark'))
  })

  it('switches to light over the system’s dark, and keeps it through a reload', async () => {
    await themeSwitch().selectOption('light')
    expect(await pageBackground()).toBe(background('light'))

    await page.reload()
    await page.getByRole('heading', { name: 'Log in' }).waitFor()
    // The app only shows the stored choice: index.html's inline script applied it, so the
    // Content-Security-Policy let that script run.
    expect(await dataTheme()).toBe('light')
    expect(await themeSwitch().inputValue()).toBe('light')
    expect(await pageBackground()).toBe(background('light'))
    expect(blocked).toEqual([])
  })

  it('hands the choice back to the system', async () => {
    await themeSwitch().selectOption('system')
    expect(await dataTheme()).toBeNull()
    expect(await pageBackground()).toBe(background('dark'))
  })
})
