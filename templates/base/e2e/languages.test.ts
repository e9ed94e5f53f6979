import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { launchBrowser } from './support/browser'

// A German browser: the pages speak German until the user chooses English on the profile page.
const anna = { name: 'Anna Adler', email: 'anna@example.com', password: 'anna-password-1' }

let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page

const at = (pathname: string) => `${server.url}${pathname}`
const htmlLang = () => page.evaluate(() => document.documentElement.lang)

beforeAll(async () => {
  server = await startAppServer({ users: [anna] })
  browser = await launchBrowser({ locale: 'de-DE' })
  page = browser.page
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('languages', () => {
  it('shows a German browser the login and register pages in German', async () => {
    await page.goto(at('/login'))
    await page.getByRole('heading', { name: 'Anmelden', exact: true }).waitFor()
    expect(await htmlLang()).toBe('de')
    expect(await page.title()).toMatch(/^Anmelden · /)
    await page.getByLabel('Passwort', { exact: true }).waitFor()

    await page.getByRole('link', { name: 'Konto erstellen', exact: true }).click()
    await page.getByRole('heading', { name: 'Konto erstellen', exact: true }).waitFor()
    await page.getByLabel('Passwort bestätigen', { exact: true }).waitFor()
  })

  it('switches to English at once when the user chooses it, and keeps it on the next visit', async () => {
    await page.goto(at('/login'))
    await page.getByLabel('E-Mail', { exact: true }).fill(anna.email)
    await page.getByLabel('Passwort', { exact: true }).fill(anna.password)
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
    await page.getByRole('heading', { name: `Willkommen, ${anna.name}` }).waitFor()

    await page.goto(at('/settings/profile'))
    const language = page.getByRole('combobox', { name: 'Sprache' })
    const saved = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/account/profile' && res.request().method() === 'PATCH')
    await language.selectOption('en')
    const answer = await saved
    expect(answer.status()).toBe(200)
    expect(answer.request().postDataJSON()).toEqual({ locale: 'en' })
    expect((await answer.json()).user.locale).toBe('en')
    await page.getByRole('heading', { name: 'Profile', exact: true }).waitFor()
    expect(await htmlLang()).toBe('en')

    // The saved choice beats the browser's German on a fresh load too.
    await page.goto(at('/dashboard'))
    await page.getByRole('heading', { name: `Welcome, ${anna.name}` }).waitFor()
    expect(await htmlLang()).toBe('en')
    expect(await page.getByRole('combobox', { name: 'Theme' }).isVisible()).toBe(true)
  })
})
