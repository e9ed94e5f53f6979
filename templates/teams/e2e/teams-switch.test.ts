import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { launchBrowser } from './support/browser'
import { apiSession, steps } from './support/teams'

const sam = { name: 'Sam Switch', email: 'sam@example.com', password: 'sam-password-1' }

let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page
let step: ReturnType<typeof steps>
let teams: Record<string, number>

const currentTeam = async () => {
  const { data } = (await (await page.request.get(step.at('/api/teams'))).json()) as { data: { id: number; current: boolean }[] }
  return data.find((team) => team.current)?.id
}
const menu = () => page.getByRole('banner').getByRole('list', { name: 'Switch team' })

beforeAll(async () => {
  server = await startAppServer({ users: [sam] })
  // Two shared teams made over the API; the last one made is current.
  const api = await apiSession(server, sam)
  teams = { north: await api.createTeam('North'), south: await api.createTeam('South') }
  browser = await launchBrowser()
  page = browser.page
  step = steps(server)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe.sequential('switching teams in Chromium', () => {
  it('lists every team of the user in the switcher, the current one marked', async () => {
    await step.logIn(page, sam)
    await expect.poll(() => step.switcher(page).textContent()).toContain('South')
    await step.switcher(page).click()
    expect(await step.switcher(page).getAttribute('aria-expanded')).toBe('true')
    await expect.poll(() => menu().getByRole('button').allTextContents()).toEqual(["Sam Switch's Team", 'North', 'SouthCurrent'])
    expect(await menu().getByRole('button', { name: /South/ }).getAttribute('aria-current')).toBe('true')
    // The keyboard starts on the current team.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('South')
    await step.shot(page, 'teams-switcher')
  })

  it('switches by keyboard: the API and the header agree, and a reload keeps it', async () => {
    await page.keyboard.press('Shift+Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('North')
    const switched = step.answerOf(page, '/api/teams/current', 'PUT')
    await page.keyboard.press('Enter')
    const answer = await switched
    expect(answer.status()).toBe(200)
    expect(answer.request().postDataJSON()).toEqual({ team_id: teams.north })
    await page.getByText('Switched to North.').waitFor()
    await expect.poll(() => step.switcher(page).textContent()).toContain('North')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-expanded'))).toBe('false')
    expect(await currentTeam()).toBe(teams.north)
    await page.reload()
    await expect.poll(() => step.switcher(page).textContent()).toContain('North')
  })

  it('fits a phone-sized screen, the open menu included', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    try {
      await step.switcher(page).click()
      await menu().waitFor()
      const box = (await page.locator('.team-switcher__menu').boundingBox())!
      expect(box.x).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(390)
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
      await step.shot(page, 'teams-switcher-mobile')
      await page.keyboard.press('Escape')
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 })
    }
  })

  it('on a team’s page, the page follows the switch; Escape closes the menu', async () => {
    await page.goto(step.at(`/teams/${teams.north}`))
    await page.getByRole('heading', { level: 1, name: 'North' }).waitFor()
    await step.switcher(page).click()
    await page.keyboard.press('Escape')
    await menu().waitFor({ state: 'detached' })
    await step.switcher(page).click()
    await menu().getByRole('button', { name: /South/ }).click()
    await page.waitForURL((url) => url.pathname === `/teams/${teams.south}`)
    await page.getByRole('heading', { level: 1, name: 'South' }).waitFor()
    expect(await currentTeam()).toBe(teams.south)
  })
})
