import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authConfig } from '../server/src/kernel/config/auth'
import { linkIn, mailTo, startMailServer, type MailServer } from '../server/tests/helpers/mail'
import { startAppServer, type AppServer } from './support/app-server'
import { launchBrowser } from './support/browser'
import { nextInvitation, steps } from './support/teams'

// The owner invites two addresses: one with an account already, one without.
const owner = { name: 'Olga Owner', email: 'olga@example.com', password: 'olga-password-1' }
const vic = { name: 'Vic Known', email: 'vic@example.com', password: 'vic-password-1' }
const newcomer = { name: 'Nina New', email: 'nina@example.com', password: 'nina-password-1' }

type Browser = Awaited<ReturnType<typeof launchBrowser>>

let mailbox: MailServer
let server: AppServer
let ownerBrowser: Browser
let guestBrowser: Browser
let page: Page
let guest: Page
let step: ReturnType<typeof steps>
let teamId: number
const links: Record<string, string> = {}

const verifyLink = async (email: string) =>
  linkIn(await mailbox.next((mail) => mailTo(email)(mail) && mail.body.includes('/verify-email?'), 15_000), 'verify-email').url

beforeAll(async () => {
  mailbox = await startMailServer()
  server = await startAppServer({ smtpUrl: mailbox.url, users: [owner, vic] })
  ownerBrowser = await launchBrowser()
  page = ownerBrowser.page
  step = steps(server)
})

afterAll(async () => {
  await guestBrowser?.close()
  await ownerBrowser?.close()
  await server?.stop()
  await mailbox?.close()
})

describe.sequential('inviting by e-mail and accepting from the mail, in Chromium', () => {
  it('the owner invites both addresses; each gets a mail, both are pending', async () => {
    await step.logIn(page, owner)
    teamId = await step.createTeam(page, 'Acme')
    const toVic = nextInvitation(mailbox, vic.email)
    await step.invite(page, vic.email, 'admin')
    await page.getByRole('status').filter({ hasText: /./ }).first().waitFor()
    links.vic = await toVic
    const toNina = nextInvitation(mailbox, newcomer.email)
    await step.invite(page, newcomer.email)
    links.nina = await toNina
    expect(new URL(links.nina).searchParams.get('email')).toBe(newcomer.email)

    const pending = page.getByRole('list', { name: 'Pending' })
    await expect.poll(() => pending.getByRole('listitem').count()).toBe(2)
    expect(await pending.textContent()).toContain(vic.email)
    expect(await pending.textContent()).toContain(newcomer.email)
    await step.shot(page, 'teams-invitations')
  })

  it('someone with an account: signed out, the link leads through the login, address filled in, and back', async () => {
    guestBrowser = await launchBrowser()
    guest = guestBrowser.page
    await guest.goto(links.vic!)
    await guest.getByRole('heading', { name: 'Join a team' }).waitFor()
    await step.shot(guest, 'teams-invitation-signed-out')
    await guest.getByRole('link', { name: 'Log in to accept' }).click()
    await guest.waitForURL((url) => url.pathname === '/login')
    expect(await guest.getByLabel('E-mail').inputValue()).toBe(vic.email)
    await guest.getByLabel('Password').fill(vic.password)
    await guest.getByRole('button', { name: 'Log in' }).click()
    await guest.waitForURL((url) => url.pathname === '/invitations/accept')
    await guest.getByText(`You are signed in as ${vic.email}`).waitFor()

    const accepted = step.answerOf(guest, '/api/invitations/accept', 'POST')
    await guest.getByRole('button', { name: 'Accept invitation' }).click()
    expect((await accepted).status()).toBe(200)
    await guest.waitForURL((url) => url.pathname === `/teams/${teamId}`)
    await guest.getByRole('heading', { level: 1, name: 'Acme' }).waitFor()
    expect(await guest.locator('h1 + .badge').textContent()).toBe('Admin')
    await expect.poll(() => step.switcher(guest).textContent()).toContain('Acme')
  })

  it('a used link is refused, plainly', async () => {
    await guest.goto(links.vic!)
    const refused = step.answerOf(guest, '/api/invitations/accept', 'POST')
    await guest.getByRole('button', { name: 'Accept invitation' }).click()
    expect((await refused).status()).toBe(422)
    const alert = guest.getByRole('main').getByRole('alert')
    await alert.waitFor()
    expect((await alert.textContent())!.trim().length).toBeGreaterThan(0)
    expect(step.here(guest)).toBe('/invitations/accept')
    await step.shot(guest, 'teams-invitation-refused')
  })

  it('someone new: registers from the link with the address filled in, verifies it, then accepts', async () => {
    await guest.getByRole('button', { name: 'Log out and use another account' }).click()
    await guest.waitForURL((url) => url.pathname === '/login')
    await guest.goto(links.nina!)
    await guest.getByRole('link', { name: 'Create an account' }).click()
    await guest.waitForURL((url) => url.pathname === '/register')
    expect(await guest.getByLabel('E-mail').inputValue()).toBe(newcomer.email)
    await guest.getByLabel('Name').fill(newcomer.name)
    await guest.getByLabel('Password', { exact: true }).fill(newcomer.password)
    await guest.getByLabel('Confirm password').fill(newcomer.password)
    const registered = step.answerOf(guest, '/api/auth/register', 'POST')
    const verification = verifyLink(newcomer.email)
    await guest.getByRole('button', { name: 'Create account' }).click()

    if ((await registered).status() === 201) {
      // Signed in at once, back on the invitation, whose acceptance waits for a verified address.
      await guest.waitForURL((url) => url.pathname === '/invitations/accept')
      expect(authConfig.requireEmailVerification).toBe(false)
      const refused = step.answerOf(guest, '/api/invitations/accept', 'POST')
      await guest.getByRole('button', { name: 'Accept invitation' }).click()
      expect((await refused).status()).toBe(422)
      await guest.getByText('Your address is not verified yet.').waitFor()
      await guest.getByRole('button', { name: 'Send me a verification link' }).click()
      await guest.goto(await verification)
      await guest.getByText(/verified/i).first().waitFor()
      await guest.goto(links.nina!)
    } else {
      // Verification first: the mailed link verifies, then the invitation link and a login.
      await guest.getByRole('heading', { name: 'Check your inbox' }).waitFor()
      await guest.goto(await verification)
      await guest.getByText(/verified/i).first().waitFor()
      await guest.goto(links.nina!)
      await guest.getByRole('link', { name: 'Log in to accept' }).click()
      expect(await guest.getByLabel('E-mail').inputValue()).toBe(newcomer.email)
      await guest.getByLabel('Password').fill(newcomer.password)
      await guest.getByRole('button', { name: 'Log in' }).click()
      await guest.waitForURL((url) => url.pathname === '/invitations/accept')
    }

    await step.accept(guest, links.nina!, teamId)
    expect(await guest.locator('h1 + .badge').textContent()).toBe('Member')
  })

  it('the owner sees both as members now, and no invitation pending', async () => {
    await page.reload()
    await step.memberRow(page, newcomer.name).waitFor()
    await expect.poll(() => page.locator('tbody tr').count()).toBe(3)
    await page.getByText('No pending invitations.').waitFor()
    await step.shot(page, 'teams-members-joined')
  })
})
