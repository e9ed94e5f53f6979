import { createHash, randomUUID } from 'node:crypto'
import supertest from 'supertest'
import { beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { TeamInvitation } from '../src/features/teams/models/invitation.js'
import { mailInvitation } from '../src/features/teams/services/invitations.js'
import { SecurityEvent } from '../src/kernel/models/index.js'
import { invitationLinkIn, invitations, invite } from './helpers/invitations.js'
import { mailTo, type MailServer } from './helpers/mail.js'
import { within } from './helpers/requests.js'
import { addMember, newTeam, person, staffedTeam, teams } from './helpers/teams.js'
import { makeUser, redisLabel, redisUrl, uniqueEmail, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')
const DAY = 24 * 3600 * 1000

let app: TestApp['app']
let ctx: TestApp['ctx']
let mail: MailServer
beforeAll(async () => {
  ;({ app, ctx } = await t.build())
  mail = await t.mailServer()
})

const eventsOf = async (userId: number, type: string) =>
  (await SecurityEvent.findAll({ where: { userId, type } })).map((event) => JSON.parse(event.meta ?? 'null') as Record<string, unknown>)

describe('POST /api/teams/:id/invitations', () => {
  it('202 {message}; the job mails a 7-day link to the address, stored only hashed, and invitation_sent is recorded', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner, 'Rocket Lab')
    const email = uniqueEmail('invitee')
    const dispatched = vi.spyOn(ctx.queue, 'dispatch')
    const link = await invite(app, mail, owner.cookies, teamId, email.toUpperCase(), 'admin')

    expect(link.url.startsWith('http://localhost:3000/invitations/accept?token=')).toBe(true)
    expect(link.email).toBe(email)
    const received = await mail.waitFor(mailTo(email))
    expect(received.subject).toBe('You are invited to join a team')
    expect(received.body).toContain('a team on localhost:3000 as an admin')
    const row = await TeamInvitation.findOne({ where: { teamId } })
    expect(row).toMatchObject({ email, role: 'admin', invitedBy: owner.id, tokenHash: sha256(link.token) })
    expect(Math.abs(row!.expiresAt.getTime() - row!.createdAt.getTime() - 7 * DAY)).toBeLessThan(5000)
    expect(await eventsOf(owner.id, 'invitation_sent')).toEqual([expect.objectContaining({ teamId })])
    // The job carries the row's id alone, never the address or the token.
    expect(dispatched.mock.calls.filter(([name]) => name === 'team:invitation').map(([, data]) => data)).toEqual([{ invitationId: row!.id, locale: 'en' }])
    dispatched.mockRestore()
  })

  it('the job mails nothing for an invitation revoked meanwhile, and a retry mints a new link that voids the earlier one', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const invitee = await person(app, 'invitee')
    const first = await invite(app, mail, owner.cookies, teamId, invitee.email)
    const row = (await TeamInvitation.findOne({ where: { teamId } }))!

    // A retry (the first mail's delivery looked failed): a fresh token, and the first link dies.
    const arriving = mail.next(mailTo(invitee.email))
    await mailInvitation(ctx, row.id)
    const retried = invitationLinkIn(await arriving)
    expect(retried.token).not.toBe(first.token)
    expect((await invitations(app, invitee.cookies).accept(first.token)).status).toBe(422)

    expect((await invitations(app, owner.cookies).revoke(teamId, row.id)).status).toBe(204)
    const before = mail.received.length
    await mailInvitation(ctx, row.id)
    expect(mail.received.length).toBe(before)
    expect((await invitations(app, invitee.cookies).accept(retried.token)).status).toBe(422)
  })

  it('two simultaneous invitations of one address: both answer 202, one invitation stands', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const email = uniqueEmail('twice')
    const results = await Promise.all(['member', 'admin'].map((role) => invitations(app, owner.cookies).send(teamId, { email, role })))
    expect(results.map((res) => res.status)).toEqual([202, 202])
    expect(await TeamInvitation.count({ where: { teamId, email } })).toBe(1)
  })

  it('a personal team takes no invitations: 422', async () => {
    const owner = await person(app, 'owner')
    const personal = (await teams(app, owner.cookies).list()).body.data.find((team: { personal: boolean }) => team.personal)
    const res = await invitations(app, owner.cookies).send(personal.id, { email: uniqueEmail('nope'), role: 'member' })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['team'])
    expect(await TeamInvitation.count({ where: { teamId: personal.id } })).toBe(0)
  })

  it('answers the same whether the address is new, has an account, or is a member already; a member is mailed nothing', async () => {
    const { owner, member, teamId } = await staffedTeam(app)
    const stranger = await makeUser()
    const answers = []
    for (const email of [uniqueEmail('new'), stranger.email, member.email]) {
      const res = await invitations(app, owner.cookies).send(teamId, { email, role: 'member' })
      answers.push({ status: res.status, body: res.body })
    }
    expect(answers[0]).toEqual({ status: 202, body: { message: expect.any(String) } })
    expect(answers[1]).toEqual(answers[0])
    expect(answers[2]).toEqual(answers[0])
    await mail.waitFor(mailTo(stranger.email))
    // The member's invitation is dropped by its job instead of mailed.
    await within(5000, async () => (await TeamInvitation.count({ where: { teamId, email: member.email } })) === 0)
    expect(mail.received.some((received) => received.to.includes(member.email))).toBe(false)
  })

  it('validates the address and the role (owner is not a role an invitation grants): 422', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const calls = invitations(app, owner.cookies)
    const missing = await calls.send(teamId, {})
    expect(missing.status).toBe(422)
    expect(Object.keys(missing.body.errors).sort()).toEqual(['email', 'role'])
    const bad = await calls.send(teamId, { email: 'not an address', role: 'owner' })
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.body.errors).sort()).toEqual(['email', 'role'])
    expect(await TeamInvitation.count({ where: { teamId } })).toBe(0)
  })

  it('a precognitive request validates and nothing else: no row, no mail', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const res = await supertest(app)
      .post(`/api/teams/${teamId}/invitations`)
      .set(withCookies(owner.cookies))
      .set('Precognition', 'true')
      .send({ email: uniqueEmail('pre'), role: 'member' })
    expect(res.status).toBe(204)
    expect(res.headers['precognition-success']).toBe('true')
    expect(await TeamInvitation.count({ where: { teamId } })).toBe(0)
  })

  it('inviting the same address again voids the first link; one invitation stays', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const invitee = await person(app, 'invitee')
    const first = await invite(app, mail, owner.cookies, teamId, invitee.email, 'member')
    const second = await invite(app, mail, owner.cookies, teamId, invitee.email, 'admin')
    expect(second.token).not.toBe(first.token)
    const list = await invitations(app, owner.cookies).list(teamId)
    expect(list.body.data).toHaveLength(1)
    expect(list.body.data[0]).toMatchObject({ email: invitee.email, role: 'admin' })

    const stale = await invitations(app, invitee.cookies).accept(first.token)
    expect(stale.status).toBe(422)
    expect(Object.keys(stale.body.errors)).toEqual(['token'])
    const accepted = await invitations(app, invitee.cookies).accept(second.token)
    expect(accepted.status).toBe(200)
    expect(accepted.body.team).toMatchObject({ id: teamId, role: 'admin' })
  })

  it('20 invitations per team per hour, then 429 with Retry-After, for every admin of it; another team is not held back', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const coAdmin = await person(app, 'co-admin')
    await addMember(teamId, coAdmin.id, 'admin')
    const other = await newTeam(app, coAdmin, 'Other')
    for (let i = 0; i < 20; i++) {
      const sender = i % 2 === 0 ? owner : coAdmin
      expect((await invitations(app, sender.cookies).send(teamId, { email: uniqueEmail(`bulk${i}`), role: 'member' })).status).toBe(202)
    }
    const limited = await invitations(app, coAdmin.cookies).send(teamId, { email: uniqueEmail('one-too-many'), role: 'member' })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(60)
    expect(limited.body).toEqual({ message: expect.any(String) })
    expect(await TeamInvitation.count({ where: { teamId } })).toBe(20)
    expect((await invitations(app, coAdmin.cookies).send(other, { email: uniqueEmail('other'), role: 'member' })).status).toBe(202)
  })
})

describe.skipIf(!redisUrl)(`the invitation limit through Redis${redisLabel}`, () => {
  it("two instances count a team's invitations together", async () => {
    const shared = `${inject('keyPrefix')}${randomUUID().slice(0, 8)}:`
    const rateLimits = { invitationsPerTeam: { limit: 3, windowMs: 3600_000 } }
    const a = await t.build({ redis: true, keyPrefix: shared, rateLimits })
    const b = await t.build({ redis: true, keyPrefix: shared, rateLimits })
    const owner = await person(a.app, 'owner')
    const teamId = await newTeam(a.app, owner)
    const send = (instance: TestApp) => invitations(instance.app, owner.cookies).send(teamId, { email: uniqueEmail('shared'), role: 'member' })
    expect([(await send(a)).status, (await send(b)).status, (await send(a)).status]).toEqual([202, 202, 202])
    expect((await send(b)).status).toBe(429)
    expect((await send(a)).status).toBe(429)
  })
})

describe('GET /api/teams/:id/invitations', () => {
  it('lists pending invitations only, {id, email, role, invitedBy, expiresAt}', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const kept = uniqueEmail('kept')
    const expired = uniqueEmail('expired')
    await invite(app, mail, owner.cookies, teamId, kept, 'admin')
    await invite(app, mail, owner.cookies, teamId, expired)
    await TeamInvitation.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { teamId, email: expired } })

    const res = await invitations(app, owner.cookies).list(teamId)
    expect(res.status).toBe(200)
    const row = await TeamInvitation.findOne({ where: { teamId, email: kept } })
    expect(res.body).toEqual({
      data: [{ id: row!.id, email: kept, role: 'admin', invitedBy: owner.id, expiresAt: row!.expiresAt.toISOString() }],
    })
  })
})

describe('DELETE /api/teams/:id/invitations/:invitationId', () => {
  it('revokes: 204, the link no longer works, and a second revoke is 404', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const invitee = await person(app, 'invitee')
    const link = await invite(app, mail, owner.cookies, teamId, invitee.email)
    const row = await TeamInvitation.findOne({ where: { teamId } })
    expect((await invitations(app, owner.cookies).revoke(teamId, row!.id)).status).toBe(204)
    expect((await invitations(app, invitee.cookies).accept(link.token)).status).toBe(422)
    expect((await invitations(app, owner.cookies).revoke(teamId, row!.id)).status).toBe(404)
  })

  it("another team's invitation id, or no id at all, is 404 and revokes nothing", async () => {
    const owner = await person(app, 'owner')
    const mine = await newTeam(app, owner)
    const theirs = await person(app, 'other-owner')
    const theirTeam = await newTeam(app, theirs)
    await invite(app, mail, theirs.cookies, theirTeam, uniqueEmail('theirs'))
    const row = await TeamInvitation.findOne({ where: { teamId: theirTeam } })
    for (const id of [row!.id, 'abc', '0', '99999999999999999999']) {
      const res = await invitations(app, owner.cookies).revoke(mine, id)
      expect(res.status, String(id)).toBe(404)
    }
    expect(await TeamInvitation.count({ where: { id: row!.id } })).toBe(1)
  })
})

describe('who may manage invitations', () => {
  type Calls = ReturnType<typeof invitations>
  /** Each call gets a pending invitation of the team's own to act on. */
  const routes: [string, (calls: Calls, teamId: number, invitationId: number) => Promise<supertest.Response>, number][] = [
    ['POST', (calls, teamId) => calls.send(teamId, { email: uniqueEmail('probe'), role: 'member' }), 202],
    ['GET', (calls, teamId) => calls.list(teamId), 200],
    ['DELETE', (calls, teamId, invitationId) => calls.revoke(teamId, invitationId), 204],
  ]

  it.each(routes)('%s: owner and admin pass, a member gets 403, a non-member 404 as for no team at all, signed out 401', async (_method, call, success) => {
    const { owner, admin, member, outsider, teamId } = await staffedTeam(app)
    const pending = async () => {
      const email = uniqueEmail('pending')
      await invite(app, mail, owner.cookies, teamId, email)
      return (await TeamInvitation.findOne({ where: { teamId, email } }))!.id
    }
    expect((await call(invitations(app, owner.cookies), teamId, await pending())).status).toBe(success)
    expect((await call(invitations(app, admin.cookies), teamId, await pending())).status).toBe(success)
    const invitationId = await pending()
    const forbidden = await call(invitations(app, member.cookies), teamId, invitationId)
    expect(forbidden.status).toBe(403)
    expect(forbidden.body).toEqual({ message: 'Forbidden.' })
    const hidden = await call(invitations(app, outsider.cookies), teamId, invitationId)
    expect(hidden.status).toBe(404)
    const nowhere = await call(invitations(app, outsider.cookies), 2_000_000_000, invitationId)
    expect({ status: nowhere.status, body: nowhere.body }).toEqual({ status: 404, body: hidden.body })
    expect((await call(invitations(app, {}), teamId, invitationId)).status).toBe(401)
    expect(await TeamInvitation.count({ where: { id: invitationId } })).toBe(1)
  })
})

describe('POST /api/invitations/accept', () => {
  it('200 {team}: the invited role, the team made current, invitation_accepted and member_added with meta.teamId', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner, 'Joinable')
    const invitee = await person(app, 'invitee')
    const link = await invite(app, mail, owner.cookies, teamId, invitee.email, 'admin')
    const res = await invitations(app, invitee.cookies).accept(link.token)
    expect(res.status).toBe(200)
    expect(res.body.team).toMatchObject({ id: teamId, name: 'Joinable', personal: false, role: 'admin' })

    const mine = await teams(app, invitee.cookies).list()
    expect(mine.body.data).toContainEqual(expect.objectContaining({ id: teamId, role: 'admin', current: true }))
    expect(mine.body.data.filter((team: { current: boolean }) => team.current)).toHaveLength(1)
    expect(await eventsOf(invitee.id, 'invitation_accepted')).toEqual([expect.objectContaining({ teamId })])
    expect(await eventsOf(invitee.id, 'member_added')).toEqual([expect.objectContaining({ teamId })])
    expect((await invitations(app, owner.cookies).list(teamId)).body.data).toEqual([])
  })

  it('works once; an unknown, an expired or a used link is 422 errors.token with one body', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const invitee = await person(app, 'invitee')
    const calls = invitations(app, invitee.cookies)
    const link = await invite(app, mail, owner.cookies, teamId, invitee.email)

    const unknown = await calls.accept('A'.repeat(43))
    expect(unknown.status).toBe(422)
    expect(Object.keys(unknown.body.errors)).toEqual(['token'])
    await TeamInvitation.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { teamId } })
    const expired = await calls.accept(link.token)
    expect(expired.body).toEqual(unknown.body)
    await TeamInvitation.update({ expiresAt: new Date(Date.now() + DAY) }, { where: { teamId } })
    expect((await calls.accept(link.token)).status).toBe(200)
    const used = await calls.accept(link.token)
    expect(used.status).toBe(422)
    expect(used.body).toEqual(unknown.body)
  })

  it("a deleted team's links die with it", async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const invitee = await person(app, 'invitee')
    const link = await invite(app, mail, owner.cookies, teamId, invitee.email)
    expect((await teams(app, owner.cookies).remove(teamId)).status).toBe(204)
    expect(await TeamInvitation.count({ where: { teamId } })).toBe(0)
    const res = await invitations(app, invitee.cookies).accept(link.token)
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['token'])
  })

  it('a missing or malformed token is 422 errors.token', async () => {
    const invitee = await person(app, 'invitee')
    for (const token of [undefined, '', 42, 'x'.repeat(600)]) {
      const res = await invitations(app, invitee.cookies).accept(token)
      expect(res.status, String(token)).toBe(422)
      expect(Object.keys(res.body.errors)).toEqual(['token'])
    }
  })

  it('two simultaneous uses of one link: exactly one wins, and one membership is made', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const invitee = await person(app, 'invitee')
    const link = await invite(app, mail, owner.cookies, teamId, invitee.email)
    const results = await Promise.all([0, 1, 2].map(() => invitations(app, invitee.cookies).accept(link.token)))
    expect(results.map((res) => res.status).sort()).toEqual([200, 422, 422])
    const members = await teams(app, owner.cookies).members(teamId)
    expect(members.body.data.data.filter((row: { id: number }) => row.id === invitee.id)).toHaveLength(1)
    expect(await eventsOf(invitee.id, 'invitation_accepted')).toHaveLength(1)
  })

  it('a wrong token changes nothing and records nothing', async () => {
    const invitee = await person(app, 'invitee')
    const before = await SecurityEvent.count({ where: { userId: invitee.id } })
    await invitations(app, invitee.cookies).accept('B'.repeat(43)).expect(422)
    expect(await SecurityEvent.count({ where: { userId: invitee.id } })).toBe(before)
  })
})
