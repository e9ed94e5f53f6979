import type { Express } from 'express'
import supertest from 'supertest'
import { expect } from 'vitest'
import type { MailServer, ReceivedMail } from './mail.js'
import { mailTo } from './mail.js'
import { withCookies } from './test-app.js'

/** The team and invitation calls of the invitation tests, with a browser's cookie jar. */
export const teamCalls = (app: Express, cookies: Record<string, string>) => ({
  create: (name = 'Acme') => supertest(app).post('/api/teams').set(withCookies(cookies)).send({ name }),
  teams: () => supertest(app).get('/api/teams').set(withCookies(cookies)),
  invite: (teamId: number, body: object) => supertest(app).post(`/api/teams/${teamId}/invitations`).set(withCookies(cookies)).send(body),
  invitations: (teamId: number) => supertest(app).get(`/api/teams/${teamId}/invitations`).set(withCookies(cookies)),
  revoke: (teamId: number, invitationId: number | string) => supertest(app).delete(`/api/teams/${teamId}/invitations/${invitationId}`).set(withCookies(cookies)),
  accept: (token: unknown) => supertest(app).post('/api/invitations/accept').set(withCookies(cookies)).send({ token }),
  setRole: (teamId: number, userId: number, role: string) => supertest(app).patch(`/api/teams/${teamId}/members/${userId}`).set(withCookies(cookies)).send({ role }),
  remove: (teamId: number, userId: number) => supertest(app).delete(`/api/teams/${teamId}/members/${userId}`).set(withCookies(cookies)),
})

/** The link of an invitation mail, as the client's `/invitations/accept` page receives it. */
export function invitationLinkIn(mail: ReceivedMail): { url: string; token: string; email: string } {
  const match = /(https?:\/\/[^\s"<]+\/invitations\/accept\?token=([A-Za-z0-9_-]+)&(?:amp;)?email=([^\s"<&]+))/.exec(mail.body)
  if (!match) throw new Error(`No invitation link in:\n${mail.body}`)
  return { url: match[1]!.replace(/&amp;/g, '&'), token: match[2]!, email: decodeURIComponent(match[3]!) }
}

/** A new shared team of the signed-in user; returns its id. */
export async function newTeam(app: Express, cookies: Record<string, string>, name = 'Acme'): Promise<number> {
  const res = await teamCalls(app, cookies).create(name)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.team.id as number
}

/** Invites `email` and returns the link mailed to it. */
export async function invite(app: Express, mail: MailServer, cookies: Record<string, string>, teamId: number, email: string, role = 'member') {
  const arriving = mail.next(mailTo(email))
  const res = await teamCalls(app, cookies).invite(teamId, { email, role })
  expect(res.status, JSON.stringify(res.body)).toBe(202)
  return invitationLinkIn(await arriving)
}

/** Brings a signed-in user into the team with `role`, the one way there is: an invitation they accept. */
export async function join(app: Express, mail: MailServer, inviter: Record<string, string>, teamId: number, member: { email: string; cookies: Record<string, string> }, role = 'member') {
  const link = await invite(app, mail, inviter, teamId, member.email, role)
  const res = await teamCalls(app, member.cookies).accept(link.token)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}
