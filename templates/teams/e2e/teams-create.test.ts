import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { launchBrowser } from './support/browser'
import { steps } from './support/teams'

const tia = { name: 'Tia Owner', email: 'tia@example.com', password: 'tia-password-1' }

let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page
let step: ReturnType<typeof steps>

beforeAll(async () => {
  server = await startAppServer({ users: [tia] })
  browser = await launchBrowser()
  page = browser.page
  step = steps(server)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe.sequential('creating a team in Chromium', () => {
  it('starts in the personal team, which the switcher shows', async () => {
    await step.logIn(page, tia)
    await expect.poll(() => step.switcher(page).textContent()).toContain("Tia Owner's Team")
    expect(await step.switcher(page).getAttribute('aria-expanded')).toBe('false')
  })

  it('refuses an empty name, under the field', async () => {
    await page.goto(step.at('/teams/new'))
    const refused = step.answerOf(page, '/api/teams', 'POST')
    await page.getByRole('button', { name: 'Create team' }).click()
    expect((await refused).status()).toBe(422)
    await page.getByRole('main').getByRole('alert').waitFor()
    expect(await page.getByLabel('Team name').getAttribute('aria-invalid')).toBe('true')
    expect(step.here(page)).toBe('/teams/new')
  })

  it('creates a team from the switcher: its owner, and it becomes current', async () => {
    await page.goto(step.at('/dashboard'))
    const id = await step.createTeam(page, 'Acme Research')
    await page.getByText('Team “Acme Research” created.').waitFor()
    expect(await page.locator('h1 + .badge').textContent()).toBe('Owner')
    await expect.poll(() => step.switcher(page).textContent()).toContain('Acme Research')

    // The creator is its one member, with the owner's role, and is shown as "you".
    const row = step.memberRow(page, tia.name)
    await row.waitFor()
    expect(await page.locator('tbody tr').count()).toBe(1)
    expect(await row.textContent()).toContain('you')
    expect(await row.textContent()).toContain('Owner')
    await step.shot(page, 'teams-created')

    // The API agrees, and a reload keeps it.
    const teams = (await (await page.request.get(step.at('/api/teams'))).json()) as { data: { id: number; name: string; role: string; current: boolean; personal: boolean }[] }
    expect(teams.data.find((team) => team.current)).toMatchObject({ id, name: 'Acme Research', role: 'owner', personal: false })
    await page.reload()
    await page.getByRole('heading', { level: 1, name: 'Acme Research' }).waitFor()
    await expect.poll(() => step.switcher(page).textContent()).toContain('Acme Research')
  })
})
