import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { TeamInvitation } from '../src/features/teams/models/invitation.js'
import { invitationLinkIn, invitations, invite } from './helpers/invitations.js'
import { jobsDone } from './helpers/jobs.js'
import { mailTo, type MailServer } from './helpers/mail.js'
import { newTeam, person, teams } from './helpers/teams.js'
import { login, makeUser, uniqueEmail, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

/**
 * Invitations mail addresses of the sender's choosing from the app's own domain: counted per
 * sender across all their teams (a new team is no new quota), teams themselves counted per
 * creator, and nothing the sender typed (a team's name, their own name) rides in the mail.
 */
const t = useTestApps()
let app: TestApp['app']
let mail: MailServer
beforeAll(async () => {
  ;({ app } = await t.build())
  mail = await t.mailServer()
})

describe('invitations per sender', () => {
  it('20 an hour across every team of theirs, then 429 with Retry-After; another sender is not held back', async () => {
    const owner = await person(app, 'owner')
    const teamIds = [await newTeam(app, owner, 'One'), await newTeam(app, owner, 'Two'), await newTeam(app, owner, 'Three')]
    for (let i = 0; i < 20; i++) {
      const res = await invitations(app, owner.cookies).send(teamIds[i % 3]!, { email: uniqueEmail(`spread${i}`), role: 'member' })
      expect(res.status, JSON.stringify(res.body)).toBe(202)
    }
    const fourth = await newTeam(app, owner, 'Four')
    for (const teamId of [...teamIds, fourth]) {
      const limited = await invitations(app, owner.cookies).send(teamId, { email: uniqueEmail('one-too-many'), role: 'member' })
      expect(limited.status).toBe(429)
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(60)
      expect(limited.body).toEqual({ message: expect.any(String) })
    }
    expect(await TeamInvitation.count({ where: { invitedBy: owner.id } })).toBe(20)

    const other = await person(app, 'other')
    expect((await invitations(app, other.cookies).send(await newTeam(app, other), { email: uniqueEmail('fine'), role: 'member' })).status).toBe(202)
  })
})

describe('teams per creator', () => {
  it('10 an hour, then 429 with Retry-After; another user is not held back', async () => {
    const creator = await person(app, 'creator')
    for (let i = 0; i < 10; i++) await newTeam(app, creator, `Team ${i}`)
    const limited = await teams(app, creator.cookies).create('Team 11')
    expect(limited.status).toBe(429)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(60)
    expect(limited.body).toEqual({ message: expect.any(String) })
    expect((await teams(app, creator.cookies).list()).body.data).toHaveLength(11)
    await newTeam(app, await person(app, 'someone-else'))
  })
})

describe('the invitation mail', () => {
  it("carries neither the team's name nor the inviter's: both are the sender's text", async () => {
    const owner = await person(app, 'owner', 'Payroll Department')
    const teamId = await newTeam(app, owner, 'Your account is locked: call +1 555 0100')
    const email = uniqueEmail('invitee')
    const link = await invite(app, mail, owner.cookies, teamId, email, 'admin')
    const received = mail.received.filter(mailTo(email)).at(-1)!
    expect(invitationLinkIn(received).token).toBe(link.token)
    for (const text of [received.subject, received.body]) {
      expect(text).not.toContain('Payroll')
      expect(text).not.toContain('locked')
      expect(text).not.toContain('555')
    }
    expect(received.body).toContain('localhost:3000')
    expect(received.body).toContain('as an admin')
  })
})

describe('POST /api/invitations/show', () => {
  const show = (cookies: Record<string, string>, token: string) => supertest(app).post('/api/invitations/show').set(withCookies(cookies)).send({ token })

  it("tells the invited account, signed in and verified, the team's and the sender's names; nobody else", async () => {
    const owner = await person(app, 'owner', 'Olga Owner')
    const teamId = await newTeam(app, owner, 'Rocket Lab')
    const invitee = await person(app, 'invitee')
    const link = await invite(app, mail, owner.cookies, teamId, invitee.email, 'admin')

    const seen = await show(invitee.cookies, link.token)
    expect(seen.status).toBe(200)
    expect(seen.headers['cache-control']).toBe('no-store')
    expect(seen.body).toEqual({ invitation: { team: { name: 'Rocket Lab' }, inviter: { name: 'Olga Owner' }, role: 'admin' } })

    const stranger = await person(app, 'stranger')
    const refused = await show(stranger.cookies, link.token)
    expect(refused.status).toBe(422)
    expect(refused.body.errors).toEqual({ token: ['This invitation is invalid or has expired.'] })
    expect((await show({}, link.token)).status).toBe(401)
    expect((await show(invitee.cookies, 'not-a-token')).status).toBe(422)

    // Seeing it uses nothing up.
    expect((await invitations(app, invitee.cookies).accept(link.token)).status).toBe(200)
  })

  it('an invitee whose address is not verified yet sees nothing', async () => {
    // Signing in unverified takes an app that does not require verification.
    const { app: open } = await t.build({ auth: { requireEmailVerification: false } })
    const owner = await person(open, 'owner')
    const teamId = await newTeam(open, owner, 'Rocket Lab')
    const user = await makeUser({ verified: false })
    const link = await invite(open, mail, owner.cookies, teamId, user.email)
    const { cookies } = await login(open, user.email)
    const res = await supertest(open).post('/api/invitations/show').set(withCookies(cookies)).send({ token: link.token })
    expect(res.status).toBe(422)
  })
})

describe('the address an invitation goes to', () => {
  it('is refused when it only looks like another (a Kelvin sign for k): 422 errors.email, nothing sent', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const res = await invitations(app, owner.cookies).send(teamId, { email: `\u212A${uniqueEmail('im').slice(1)}`, role: 'member' })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['email'])
    expect(await TeamInvitation.count({ where: { teamId } })).toBe(0)
  })

  it('counts toward its cap of mails (kernel/services/mail-quota.ts): past it the answer is the same and nothing is sent', async () => {
    const { app: capped, ctx } = await t.build({ rateLimits: { mailPerAddress: { limit: 1, windowMs: 60_000 } } })
    const owner = await person(capped, 'owner')
    const [first, second] = [await newTeam(capped, owner, 'First'), await newTeam(capped, owner, 'Second')]
    const email = uniqueEmail('popular')
    await invite(capped, mail, owner.cookies, first, email)
    const again = await invitations(capped, owner.cookies).send(second, { email, role: 'member' })
    expect(again.status).toBe(202)
    expect(again.body).toEqual({ message: 'If that address can join the team, an invitation is on its way to it.' })
    await jobsDone(ctx)
    expect(mail.received.filter(mailTo(email))).toHaveLength(1)
    expect(await TeamInvitation.count({ where: { teamId: second } })).toBe(0)
  })
})
