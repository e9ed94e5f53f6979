import fs from 'node:fs'
import path from 'node:path'
import type { Page, Response } from 'playwright-core'
import { expect } from 'vitest'
import { mailTo, type MailServer, type ReceivedMail } from '../../server/tests/helpers/mail'
import type { AppServer } from './app-server'
import { screenshotDir } from './paths'

export interface Person {
  name: string
  email: string
  password: string
}

/** The invitation link of a mail, as the invitee would click it. */
export function invitationLinkIn(mail: ReceivedMail): string {
  const match = /(https?:\/\/[^\s"<>]+\/invitations\/accept\?[^\s"<>]+)/.exec(mail.body)
  if (!match) throw new Error(`No invitation link in:\n${mail.body}`)
  return match[1]!.replace(/&amp;/g, '&')
}

/** The next invitation mailed to `email` (call before the action that sends it). */
export const nextInvitation = (mailbox: MailServer, email: string) =>
  mailbox.next((mail) => mailTo(email)(mail) && mail.body.includes('/invitations/accept?'), 15_000).then(invitationLinkIn)

/** The browser steps the teams tests share. */
export function steps(server: AppServer) {
  const at = (pathname: string) => `${server.url}${pathname}`
  const here = (page: Page) => new URL(page.url()).pathname

  return {
    at,
    here,
    /** The answer to the next real request (live validation's precognitive ones aside). */
    answerOf: (page: Page, pathname: string | RegExp, method?: string): Promise<Response> =>
      page.waitForResponse((res) => {
        const { pathname: got } = new URL(res.url())
        const request = res.request()
        return (
          (typeof pathname === 'string' ? got === pathname : pathname.test(got)) &&
          (!method || request.method() === method) &&
          request.headers().precognition !== 'true'
        )
      }),

    async logIn(page: Page, person: Person) {
      await page.goto(at('/login'))
      await page.getByLabel('E-mail').fill(person.email)
      await page.getByLabel('Password').fill(person.password)
      await page.getByRole('button', { name: 'Log in' }).click()
      await page.waitForURL((url) => url.pathname === '/dashboard')
    },

    /** The switcher's button in the header; its name starts with "Team:". */
    switcher: (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Team:/ }),

    /** Through the switcher's "Create a team", as a user would; the new team's id. */
    async createTeam(page: Page, name: string): Promise<number> {
      await this.switcher(page).click()
      await page.getByRole('banner').getByRole('link', { name: 'Create a team' }).click()
      await page.waitForURL((url) => url.pathname === '/teams/new')
      await page.getByLabel('Team name').fill(name)
      const created = this.answerOf(page, '/api/teams', 'POST')
      await page.getByRole('button', { name: 'Create team' }).click()
      expect((await created).status()).toBe(201)
      await page.waitForURL((url) => /^\/teams\/\d+$/.test(url.pathname))
      await page.getByRole('heading', { level: 1, name }).waitFor()
      return Number(here(page).split('/').pop())
    },

    /** Sends an invitation from the team's page, where `page` is. */
    async invite(page: Page, email: string, role: 'member' | 'admin' = 'member') {
      await page.getByLabel('E-mail address to invite').fill(email)
      await page.getByLabel('Role', { exact: true }).selectOption(role)
      const sent = this.answerOf(page, /^\/api\/teams\/\d+\/invitations$/, 'POST')
      await page.getByRole('button', { name: 'Send invitation' }).click()
      expect((await sent).status()).toBe(202)
    },

    /** On the invitation's page, signed in with the invited address: accepts, and lands on the team. */
    async accept(page: Page, link: string, teamId: number) {
      await page.goto(link)
      const accepted = this.answerOf(page, '/api/invitations/accept', 'POST')
      await page.getByRole('button', { name: 'Accept invitation' }).click()
      expect((await accepted).status()).toBe(200)
      await page.waitForURL((url) => url.pathname === `/teams/${teamId}`)
    },

    memberRow: (page: Page, name: string) => page.locator('tbody tr').filter({ hasText: name }),

    async shot(page: Page, name: string) {
      fs.mkdirSync(screenshotDir, { recursive: true })
      await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true })
    },
  }
}

/**
 * Someone else's doings that a test only needs done, over the API without a browser: a session of
 * its own (the cookies the login sets) and requests that state the app's origin, as a page's do.
 */
export async function apiSession(server: AppServer, person: Person) {
  const cookies = new Map<string, string>()
  async function send(method: string, pathname: string, body?: unknown) {
    const response = await fetch(`${server.url}${pathname}`, {
      method,
      headers: {
        origin: server.url,
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const at = pair!.indexOf('=')
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1))
    }
    const text = await response.text()
    return { status: response.status, body: text ? (JSON.parse(text) as any) : undefined }
  }
  const login = await send('POST', '/api/auth/login', { email: person.email, password: person.password })
  expect(login.status, `login of ${person.email}`).toBe(200)
  return {
    send,
    async createTeam(name: string): Promise<number> {
      const answer = await send('POST', '/api/teams', { name })
      expect(answer.status).toBe(201)
      return answer.body.team.id as number
    },
    async invite(teamId: number, email: string, role: 'member' | 'admin' = 'member') {
      expect((await send('POST', `/api/teams/${teamId}/invitations`, { email, role })).status).toBe(202)
    },
    async accept(link: string) {
      const token = new URL(link).searchParams.get('token')
      const answer = await send('POST', '/api/invitations/accept', { token })
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    },
  }
}
