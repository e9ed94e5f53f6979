import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMailServer, type MailServer } from '../server/tests/helpers/mail'
import { startAppServer, type AppServer } from './support/app-server'
import { launchBrowser } from './support/browser'
import { apiSession, nextInvitation, steps } from './support/teams'

const owner = { name: 'Olga Owner', email: 'olga@example.com', password: 'olga-password-1' }
const mia = { name: 'Mia Member', email: 'mia@example.com', password: 'mia-password-1' }

let mailbox: MailServer
let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page
let step: ReturnType<typeof steps>
let teamId: number
let link: string

beforeAll(async () => {
  mailbox = await startMailServer()
  server = await startAppServer({ smtpUrl: mailbox.url, users: [owner, mia] })
  const ownerApi = await apiSession(server, owner)
  teamId = await ownerApi.createTeam('Acme')
  const mailed = nextInvitation(mailbox, mia.email)
  await ownerApi.invite(teamId, mia.email)
  link = await mailed
  // Something for an owner or admin to see that a member must not.
  await ownerApi.invite(teamId, 'pending@example.com', 'admin')
  browser = await launchBrowser()
  page = browser.page
  step = steps(server)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await mailbox?.close()
})

describe.sequential('a member’s view of the team, in Chromium', () => {
  it('joins as a member from the mail', async () => {
    await step.logIn(page, mia)
    await step.accept(page, link, teamId)
    expect(await page.locator('h1 + .badge').textContent()).toBe('Member')
  })

  it('sees the team and its members, and none of the admin actions', async () => {
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2)
    const main = page.getByRole('main')
    expect(await main.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Members', 'Leave the team'])
    // Roles as words, no selects; no row actions; no name, invite, transfer or delete controls.
    expect(await main.getByRole('combobox', { name: /^Role of/ }).count()).toBe(0)
    expect(await main.locator('tbody .badge:not(.badge--soft)').allTextContents()).toEqual(['Owner', 'Member'])
    expect(await main.getByRole('button', { name: /^(Remove|Transfer ownership|Revoke|Delete team|Send invitation|Save)/ }).count()).toBe(0)
    expect(await main.getByLabel('Team name').count()).toBe(0)
    expect(await main.getByText('pending@example.com').count()).toBe(0)
    expect(await main.getByRole('button', { name: 'Leave team' }).count()).toBe(1)
    await step.shot(page, 'teams-member-view')
  })

  it('what the page hides, the API refuses', async () => {
    const asMember = (method: 'patch' | 'get', pathname: string, data?: unknown) =>
      page.request[method](step.at(pathname), { headers: { origin: server.url }, ...(data ? { data } : {}) })
    expect((await asMember('get', `/api/teams/${teamId}/invitations`)).status()).toBe(403)
    expect((await asMember('patch', `/api/teams/${teamId}`, { name: 'Mine now' })).status()).toBe(403)
  })
})
