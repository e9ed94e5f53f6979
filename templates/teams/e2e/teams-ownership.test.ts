import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMailServer, type MailServer } from '../server/tests/helpers/mail'
import { startAppServer, type AppServer } from './support/app-server'
import { launchBrowser } from './support/browser'
import { waitUntilUnconfirmed } from './support/confirm-its-you'
import { apiSession, nextInvitation, steps, type Person } from './support/teams'

// Handing a team over and deleting one: both wait for "Confirm it's you", which a sign-in
// satisfies for CONFIRM_TTL, short here.
const owner = { name: 'Olga Owner', email: 'olga@example.com', password: 'olga-password-1' }
const max = { name: 'Max Member', email: 'max@example.com', password: 'max-password-1' }

let mailbox: MailServer
let server: AppServer
let browser: Awaited<ReturnType<typeof launchBrowser>>
let page: Page
let step: ReturnType<typeof steps>
const teams: Record<string, number> = {}

/** Answers the "Confirm it's you" dialog with the password, once it has opened. */
async function confirmItsYou(person: Person) {
  const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' })
  await dialog.getByLabel('Password').fill(person.password)
  await dialog.getByRole('button', { name: 'Confirm', exact: true }).click()
  await dialog.waitFor({ state: 'hidden' })
}

beforeAll(async () => {
  mailbox = await startMailServer()
  server = await startAppServer({ smtpUrl: mailbox.url, users: [owner, max], env: { CONFIRM_TTL: '3s' } })
  const ownerApi = await apiSession(server, owner)
  teams.scratch = await ownerApi.createTeam('Scratch')
  teams.acme = await ownerApi.createTeam('Acme')
  const link = nextInvitation(mailbox, max.email)
  await ownerApi.invite(teams.acme, max.email)
  await (await apiSession(server, max)).accept(await link)
  browser = await launchBrowser()
  page = browser.page
  step = steps(server)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await mailbox?.close()
})

describe.sequential('transferring and deleting a team, in Chromium', () => {
  it('transfers ownership behind a confirmation and "Confirm it’s you"; the old owner is an admin then', async () => {
    await step.logIn(page, owner)
    await page.goto(step.at(`/teams/${teams.acme}`))
    await step.memberRow(page, max.name).waitFor()
    await waitUntilUnconfirmed(page, server.url)

    const statuses: number[] = []
    page.on('response', (res) => {
      if (new URL(res.url()).pathname === `/api/teams/${teams.acme}/transfer`) statuses.push(res.status())
    })
    await page.getByRole('button', { name: `Transfer ownership to ${max.name}` }).click()
    const ask = page.getByRole('dialog', { name: `Transfer ownership to ${max.name}?` })
    await ask.getByRole('button', { name: 'Transfer ownership', exact: true }).click()
    await confirmItsYou(owner)
    await page.getByText(`${max.name} now owns the team; you are an admin.`).waitFor()
    expect(statuses).toEqual([403, 200])

    await expect.poll(() => page.locator('h1 + .badge').textContent()).toBe('Admin')
    await expect.poll(() => step.memberRow(page, max.name).textContent()).toContain('Owner')
    // An admin may not touch an owner, hand the team on or delete it.
    expect(await page.getByLabel(`Role of ${max.name}`).count()).toBe(0)
    expect(await page.getByRole('button', { name: /^(Transfer ownership|Delete team|Remove Max)/ }).count()).toBe(0)
  })

  it('deletes a team behind a confirmation and "Confirm it’s you", then it is gone from the switcher', async () => {
    await page.goto(step.at(`/teams/${teams.scratch}`))
    await page.getByRole('heading', { level: 1, name: 'Scratch' }).waitFor()
    await waitUntilUnconfirmed(page, server.url)
    await page.getByRole('button', { name: 'Delete team' }).click()
    const ask = page.getByRole('dialog', { name: 'Delete “Scratch”?' })
    const deleted = page.waitForResponse((res) => new URL(res.url()).pathname === `/api/teams/${teams.scratch}` && res.request().method() === 'DELETE' && res.status() !== 403)
    await ask.getByRole('button', { name: 'Delete team' }).click()
    await confirmItsYou(owner)
    expect((await deleted).status()).toBe(204)
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await page.getByText('The team “Scratch” was deleted.').waitFor()

    await step.switcher(page).click()
    const names = await page.getByRole('banner').getByRole('list', { name: 'Switch team' }).getByRole('button').allTextContents()
    expect(names.map((name) => name.replace(/Current$/, ''))).toEqual(["Olga Owner's Team", 'Acme'])
    expect((await page.request.get(step.at(`/api/teams/${teams.scratch}`))).status()).toBe(404)
  })
})
