import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMailServer, type MailServer } from '../server/tests/helpers/mail'
import { startAppServer, type AppServer } from './support/app-server'
import { launchBrowser } from './support/browser'
import { apiSession, nextInvitation, steps } from './support/teams'

const owner = { name: 'Olga Owner', email: 'olga@example.com', password: 'olga-password-1' }
const max = { name: 'Max Member', email: 'max@example.com', password: 'max-password-1' }
const rita = { name: 'Rita Removed', email: 'rita@example.com', password: 'rita-password-1' }

let mailbox: MailServer
let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page
let step: ReturnType<typeof steps>
let teamId: number
let ritaApi: Awaited<ReturnType<typeof apiSession>>

/** `person` joins the team through a mailed invitation, over the API. */
async function join(api: Awaited<ReturnType<typeof apiSession>>, person: typeof max) {
  const link = nextInvitation(mailbox, person.email)
  await api.invite(teamId, person.email)
  const session = await apiSession(server, person)
  await session.accept(await link)
  return session
}

beforeAll(async () => {
  mailbox = await startMailServer()
  server = await startAppServer({ smtpUrl: mailbox.url, users: [owner, max, rita] })
  const ownerApi = await apiSession(server, owner)
  teamId = await ownerApi.createTeam('Acme')
  await join(ownerApi, max)
  ritaApi = await join(ownerApi, rita)
  browser = await launchBrowser()
  page = browser.page
  step = steps(server)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await mailbox?.close()
})

describe.sequential('changing a role and removing a member, in Chromium', () => {
  it('lists the members in the table with their roles', async () => {
    await step.logIn(page, owner)
    await page.goto(step.at(`/teams/${teamId}`))
    await expect.poll(() => page.locator('tbody tr').count()).toBe(3)
    expect(await page.getByLabel(`Role of ${max.name}`).inputValue()).toBe('member')
    expect(await page.getByLabel(`Role of ${rita.name}`).inputValue()).toBe('member')
    await step.shot(page, 'teams-members')
  })

  it('makes a member an admin from the role select; a reload shows it', async () => {
    const answer = step.answerOf(page, new RegExp(`^/api/teams/${teamId}/members/\\d+$`), 'PATCH')
    await page.getByLabel(`Role of ${max.name}`).selectOption('admin')
    expect((await answer).status()).toBe(200)
    expect((await answer).request().postDataJSON()).toEqual({ role: 'admin' })
    await page.getByText(`${max.name} is now an admin.`).waitFor()
    await page.reload()
    await expect.poll(() => page.getByLabel(`Role of ${max.name}`).inputValue()).toBe('admin')
  })

  it('removes a member after a confirmation; their very next request is refused', async () => {
    expect((await ritaApi.send('GET', `/api/teams/${teamId}`)).status).toBe(200)
    await page.getByRole('button', { name: `Remove ${rita.name}` }).click()
    const dialog = page.getByRole('dialog', { name: `Remove ${rita.name}?` })
    await dialog.waitFor()
    await step.shot(page, 'teams-remove-member')
    const removed = step.answerOf(page, new RegExp(`^/api/teams/${teamId}/members/\\d+$`), 'DELETE')
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click()
    expect((await removed).status()).toBe(204)
    await dialog.waitFor({ state: 'hidden' })
    await page.getByText(`${rita.name} was removed from the team.`).waitFor()
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2)
    expect(await step.memberRow(page, rita.name).count()).toBe(0)

    // Still signed in, but no longer let into the team: the same answer as for any stranger.
    expect((await ritaApi.send('GET', `/api/teams/${teamId}`)).status).toBe(404)
    expect((await ritaApi.send('GET', '/api/auth/me')).status).toBe(200)
  })
})
