import type { Express } from 'express'
import supertest from 'supertest'
import { expect } from 'vitest'
import { mailTo, type MailServer, type ReceivedMail } from './mail.js'
import type { Cookies } from './teams.js'
import { withCookies } from './test-app.js'

/** The invitation routes, with a browser's cookie jar. */
export const invitations = (app: Express, cookies: Cookies) => ({
  send: (teamId: number, body: object) => supertest(app).post(`/api/teams/${teamId}/invitations`).set(withCookies(cookies)).send(body),
  list: (teamId: number) => supertest(app).get(`/api/teams/${teamId}/invitations`).set(withCookies(cookies)),
  revoke: (teamId: number, invitationId: number | string) => supertest(app).delete(`/api/teams/${teamId}/invitations/${invitationId}`).set(withCookies(cookies)),
  accept: (token: unknown) => supertest(app).post('/api/invitations/accept').set(withCookies(cookies)).send({ token }),
})

/** The link of an invitation mail, as the client's `/invitations/accept` page receives it. */
export function invitationLinkIn(mail: ReceivedMail): { url: string; token: string; email: string } {
  const match = /(https?:\/\/[^\s"<]+\/invitations\/accept\?token=([A-Za-z0-9_-]+)&(?:amp;)?email=([^\s"<&]+))/.exec(mail.body)
  if (!match) throw new Error(`No invitation link in:\n${mail.body}`)
  return { url: match[1]!.replace(/&amp;/g, '&'), token: match[2]!, email: decodeURIComponent(match[3]!) }
}

/** Invites `email` and returns the link mailed to it. */
export async function invite(app: Express, mail: MailServer, inviter: Cookies, teamId: number, email: string, role = 'member') {
  const arriving = mail.next(mailTo(email))
  const res = await invitations(app, inviter).send(teamId, { email, role })
  expect(res.status, JSON.stringify(res.body)).toBe(202)
  return invitationLinkIn(await arriving)
}

/** Brings a signed-in user into the team with `role` the way people join: an invitation they accept. */
export async function join(app: Express, mail: MailServer, inviter: Cookies, teamId: number, member: { email: string; cookies: Cookies }, role = 'member') {
  const link = await invite(app, mail, inviter, teamId, member.email, role)
  const res = await invitations(app, member.cookies).accept(link.token)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}
