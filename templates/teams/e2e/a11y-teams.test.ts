import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppServer, type AppServer } from './support/app-server'
import { axeViolations } from './support/axe'
import { launchBrowser } from './support/browser'
import { steps } from './support/teams'

// The teams layer's pages through axe-core (WCAG 2.2 A/AA, both themes, desktop and phone).
const owner = { name: 'Olga Owner', email: 'olga@example.com', password: 'olga-password-1' }

let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page
let step: ReturnType<typeof steps>

const noViolations = async (name: string) => expect(await axeViolations(page, name)).toEqual([])
const invitation = `/invitations/accept?token=${'0'.repeat(40)}&email=ivy%40example.com`

beforeAll(async () => {
  server = await startAppServer({ users: [owner] })
  browser = await launchBrowser()
  page = browser.page
  step = steps(server)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe.sequential('teams: WCAG 2.2 A/AA (axe-core)', () => {
  it('an invitation, signed out', async () => {
    await page.goto(step.at(invitation))
    await page.getByRole('link', { name: 'Log in to accept' }).waitFor()
    await noViolations('invitation, signed out')
  })

  it('the team switcher, the new-team page and a team with a pending invitation', async () => {
    await step.logIn(page, owner)
    await step.switcher(page).click()
    await page.getByRole('banner').getByRole('link', { name: 'Create a team' }).waitFor()
    await noViolations('team switcher, open')

    await page.getByRole('banner').getByRole('link', { name: 'Create a team' }).click()
    await page.getByLabel('Team name').waitFor()
    await noViolations('create a team')

    await step.createTeam(page, 'Accessible Team')
    await step.invite(page, 'ivy@example.com')
    await page.getByText('ivy@example.com').first().waitFor()
    await noViolations('team page')
  })

  it('an invitation, signed in with another address', async () => {
    await page.goto(step.at(invitation))
    await page.getByRole('button', { name: 'Accept invitation' }).waitFor()
    await noViolations('invitation, signed in')
  })
})
