import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { TeamInvitation } from '../src/features/teams/models/invitation.js'
import { TeamMember } from '../src/features/teams/models/team-member.js'
import { User } from '../src/kernel/models/index.js'
import { invitations, invite, join } from './helpers/invitations.js'
import type { MailServer } from './helpers/mail.js'
import { newTeam, person, teams } from './helpers/teams.js'
import { login, makeUser, PASSWORD, uniqueEmail, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

/**
 * Whoever holds an invitation link without being its addressee gets nowhere: the link needs the
 * signed-in account whose verified address it was sent to, works once, and dies with its
 * sender's right to invite. Every refusal is the body of an unknown token, so the route tells a
 * prober nothing about a link it holds.
 */
const t = useTestApps()

let app: TestApp['app']
let mail: MailServer
let unknownTokenBody: unknown
beforeAll(async () => {
  // Verification not required to sign in, so an unverified account can try the link.
  ;({ app } = await t.build({ auth: { requireEmailVerification: false } }))
  mail = await t.mailServer()
  const someone = await person(app, 'someone')
  unknownTokenBody = (await invitations(app, someone.cookies).accept('C'.repeat(43))).body
})

/** An account whose address is not verified, signed in (this app does not require verification to sign in). */
async function unverifiedPerson(tag: string) {
  const user = await makeUser({ email: uniqueEmail(tag), verified: false })
  return { id: user.id, email: user.email, cookies: (await login(app, user.email)).cookies }
}

const isMember = async (teamId: number, userId: number) => (await TeamMember.count({ where: { teamId, userId } })) > 0

/** A refusal exactly like an unknown token's. */
function refused(res: supertest.Response) {
  expect(res.status).toBe(422)
  expect(res.body).toEqual(unknownTokenBody)
}

describe('invitation links in the wrong hands', () => {
  it('another signed-in account is refused, and the link still works for its addressee', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const invitee = await person(app, 'invitee')
    const thief = await person(app, 'thief')
    const link = await invite(app, mail, owner.cookies, teamId, invitee.email, 'admin')

    refused(await invitations(app, thief.cookies).accept(link.token))
    expect(await isMember(teamId, thief.id)).toBe(false)
    expect((await invitations(app, invitee.cookies).accept(link.token)).status).toBe(200)
  })

  it('an unverified account with the invited address is refused until the address is verified', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const squatter = await unverifiedPerson('squatter')
    const link = await invite(app, mail, owner.cookies, teamId, squatter.email)

    refused(await invitations(app, squatter.cookies).accept(link.token))
    expect(await isMember(teamId, squatter.id)).toBe(false)
    await User.update({ emailVerifiedAt: new Date() }, { where: { id: squatter.id } })
    expect((await invitations(app, squatter.cookies).accept(link.token)).status).toBe(200)
  })

  it('signed out, the link is 401 whatever it holds, and stays usable', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const invitee = await person(app, 'invitee')
    const link = await invite(app, mail, owner.cookies, teamId, invitee.email)
    const real = await invitations(app, {}).accept(link.token)
    const fake = await invitations(app, {}).accept('D'.repeat(43))
    expect(real.status).toBe(401)
    expect(real.body).toEqual(fake.body)
    expect((await invitations(app, invitee.cookies).accept(link.token)).status).toBe(200)
  })

  it('a replayed link is refused, for its addressee and for anyone else', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const invitee = await person(app, 'invitee')
    const other = await person(app, 'other')
    const link = await invite(app, mail, owner.cookies, teamId, invitee.email)
    expect((await invitations(app, invitee.cookies).accept(link.token)).status).toBe(200)
    refused(await invitations(app, invitee.cookies).accept(link.token))
    refused(await invitations(app, other.cookies).accept(link.token))
  })

  it('a removed member cannot come back with the link that brought them in', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const member = await person(app, 'member')
    const link = await invite(app, mail, owner.cookies, teamId, member.email)
    expect((await invitations(app, member.cookies).accept(link.token)).status).toBe(200)
    expect((await teams(app, owner.cookies).removeMember(teamId, member.id)).status).toBe(204)
    refused(await invitations(app, member.cookies).accept(link.token))
    expect(await isMember(teamId, member.id)).toBe(false)
  })

  it('removing a member voids the invitations they sent to the team and any pending one of their own address', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const admin = await person(app, 'admin')
    await join(app, mail, owner.cookies, teamId, admin, 'admin')
    const invitee = await person(app, 'invitee')
    const sent = await invite(app, mail, admin.cookies, teamId, invitee.email)
    // A link to the admin's own address, as one sent just before they joined would be.
    await TeamInvitation.create({ teamId, email: admin.email, role: 'admin', invitedBy: owner.id, tokenHash: 'x'.repeat(64), expiresAt: new Date(Date.now() + 3600_000) })

    expect((await teams(app, owner.cookies).removeMember(teamId, admin.id)).status).toBe(204)
    expect(await TeamInvitation.count({ where: { teamId } })).toBe(0)
    refused(await invitations(app, invitee.cookies).accept(sent.token))
  })
})

describe('a link outlives no loss of its sender’s right to invite', () => {
  async function adminsInvitation() {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const admin = await person(app, 'admin')
    await join(app, mail, owner.cookies, teamId, admin, 'admin')
    const invitee = await person(app, 'invitee')
    const link = await invite(app, mail, admin.cookies, teamId, invitee.email)
    return { owner, admin, invitee, teamId, link }
  }

  it('the sender demoted to member: the link is void and no longer pending', async () => {
    const { owner, admin, invitee, teamId, link } = await adminsInvitation()
    expect((await teams(app, owner.cookies).setRole(teamId, admin.id, 'member')).status).toBe(200)
    expect((await invitations(app, owner.cookies).list(teamId)).body.data).toEqual([])
    refused(await invitations(app, invitee.cookies).accept(link.token))
    expect(await isMember(teamId, invitee.id)).toBe(false)
  })

  it('the sender leaving the team: the link is void', async () => {
    const { admin, invitee, teamId, link } = await adminsInvitation()
    expect((await teams(app, admin.cookies).removeMember(teamId, admin.id)).status).toBe(204)
    refused(await invitations(app, invitee.cookies).accept(link.token))
  })

  it('checked when the link is used too: a sender who lost the role by any other path cannot let anyone in', async () => {
    const { admin, invitee, teamId, link } = await adminsInvitation()
    await TeamMember.update({ role: 'member' }, { where: { teamId, userId: admin.id } })
    refused(await invitations(app, invitee.cookies).accept(link.token))
    expect(await isMember(teamId, invitee.id)).toBe(false)
  })

  it('the sender signing out everywhere (how a hijacked account is taken back) voids the links they sent', async () => {
    const { admin, invitee, teamId, link } = await adminsInvitation()
    const res = await supertest(app).delete('/api/account/sessions').set(withCookies(admin.cookies)).send({ password: PASSWORD })
    expect(res.status).toBe(204)
    expect(await TeamInvitation.count({ where: { teamId } })).toBe(0)
    refused(await invitations(app, invitee.cookies).accept(link.token))
  })

  it("the sender's account deleted: the links they sent die with it", async () => {
    const { admin, invitee, teamId, link } = await adminsInvitation()
    const res = await supertest(app).delete('/api/account').set(withCookies(admin.cookies)).send({ password: PASSWORD })
    expect(res.status).toBe(204)
    expect(await TeamInvitation.count({ where: { teamId } })).toBe(0)
    refused(await invitations(app, invitee.cookies).accept(link.token))
  })

  it("the invitee's own revoking events leave the link alone: it is not their credential", async () => {
    const { invitee, teamId, link } = await adminsInvitation()
    const res = await supertest(app).post('/api/auth/logout-all').set(withCookies(invitee.cookies))
    expect(res.status).toBe(204)
    const again = (await login(app, invitee.email)).cookies
    expect((await invitations(app, again).accept(link.token)).status).toBe(200)
    expect(await isMember(teamId, invitee.id)).toBe(true)
  })
})
