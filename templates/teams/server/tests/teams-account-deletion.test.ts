import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { Team } from '../src/features/teams/models/team.js'
import { TeamMember } from '../src/features/teams/models/team-member.js'
import { User } from '../src/kernel/models/index.js'
import { account } from './helpers/requests.js'
import { addMember, newTeam, person, personalTeamOf, staffedTeam, teams } from './helpers/teams.js'
import { login, makeUser, PASSWORD, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
let app: TestApp['app']
beforeAll(async () => {
  ;({ app } = await t.build())
})

const deleteAccount = (cookies: Record<string, string>) => account(app, cookies).remove({ password: PASSWORD })

describe('DELETE /api/account with teams', () => {
  it('a member\'s deletion removes their memberships and their personal team; the teams go on', async () => {
    const { owner, member, teamId } = await staffedTeam(app)
    const personal = await personalTeamOf(member.id)
    expect((await deleteAccount(member.cookies)).status).toBe(204)
    expect(await TeamMember.count({ where: { userId: member.id } })).toBe(0)
    expect(await Team.findByPk(personal.id)).toBeNull()
    expect((await teams(app, owner.cookies).members(teamId)).body.data.total).toBe(2)
  })

  it('the last owner of a team with other members: 422 on password, nothing deleted, until ownership moves', async () => {
    const { owner, admin, teamId } = await staffedTeam(app)
    const res = await deleteAccount(owner.cookies)
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ message: expect.any(String), errors: { password: [expect.any(String)] } })
    expect(await User.findByPk(owner.id)).not.toBeNull()
    expect(await TeamMember.count({ where: { userId: owner.id } })).toBe(2)

    expect((await teams(app, owner.cookies).transfer(teamId, admin.id)).status).toBe(200)
    expect((await deleteAccount(owner.cookies)).status).toBe(204)
    expect(await User.findByPk(owner.id)).toBeNull()
    expect((await teams(app, admin.cookies).show(teamId)).body.team.role).toBe('owner')
  })

  it('one of two owners may go', async () => {
    const { owner, admin, teamId } = await staffedTeam(app)
    await teams(app, owner.cookies).setRole(teamId, admin.id, 'owner')
    expect((await deleteAccount(owner.cookies)).status).toBe(204)
    expect(await TeamMember.count({ where: { teamId, role: 'owner' } })).toBe(1)
  })

  it('a deletion racing a change to the same member: both answer, neither waits on the other for good (no 500)', async () => {
    for (let round = 0; round < 5; round++) {
      const { owner, member, teamId } = await staffedTeam(app)
      const [deleted, changed] = await Promise.all([deleteAccount(member.cookies), teams(app, owner.cookies).setRole(teamId, member.id, 'admin')])
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(204)
      expect([200, 404], JSON.stringify(changed.body)).toContain(changed.status)
      expect(await TeamMember.count({ where: { userId: member.id } })).toBe(0)
    }
  })

  it('an owner deleting their account while another owner leaves: one of them is refused, the team keeps an owner', async () => {
    for (let round = 0; round < 5; round++) {
      const { owner, admin, teamId } = await staffedTeam(app)
      await TeamMember.update({ role: 'owner' }, { where: { teamId, userId: admin.id } })
      const [deleted, left] = await Promise.all([deleteAccount(owner.cookies), teams(app, admin.cookies).removeMember(teamId, admin.id)])
      expect([deleted.status, left.status].sort()).toEqual([204, 422])
      expect(await TeamMember.count({ where: { teamId, role: 'owner' } })).toBe(1)
    }
  })

  it('a shared team with nobody else in it goes with its owner', async () => {
    const owner = await person(app)
    const teamId = await newTeam(app, owner)
    expect((await deleteAccount(owner.cookies)).status).toBe(204)
    expect(await Team.findByPk(teamId)).toBeNull()
  })
})

describe('DELETE /api/users (an admin deletes users) with teams', () => {
  async function adminCookies() {
    const admin = await makeUser({ role: 'admin' })
    return (await login(app, admin.email)).cookies
  }

  it('refuses (422 on ids) a user who is the last owner of a team with others; deletes nothing of the batch', async () => {
    const { owner, member } = await staffedTeam(app)
    const res = await supertest(app).delete('/api/users').set(withCookies(await adminCookies())).send({ ids: [owner.id, member.id] })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['ids'])
    expect(await User.count({ where: { id: [owner.id, member.id] } })).toBe(2)
  })

  it('deleting every member of a team together, owner included, takes the team too', async () => {
    const { owner, admin, member, teamId } = await staffedTeam(app)
    const res = await supertest(app).delete('/api/users').set(withCookies(await adminCookies())).send({ ids: [owner.id, admin.id, member.id] })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(await Team.findByPk(teamId)).toBeNull()
  })

  it('deleting a member by "all matching" removes the membership', async () => {
    const { owner, member, teamId } = await staffedTeam(app)
    const res = await supertest(app).delete('/api/users').set(withCookies(await adminCookies())).send({ all: true, search: member.email })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.deleted).toBe(1)
    expect((await teams(app, owner.cookies).members(teamId)).body.data.total).toBe(2)
  })

  it('a user whose personal team holds nobody else goes, personal team and all, even as its only owner', async () => {
    const lone = await person(app)
    await addMember((await newTeam(app, await person(app))), lone.id, 'member')
    const personal = await personalTeamOf(lone.id)
    const res = await supertest(app).delete('/api/users').set(withCookies(await adminCookies())).send({ ids: [lone.id] })
    expect(res.status).toBe(200)
    expect(await Team.findByPk(personal.id)).toBeNull()
  })
})

describe('a user deleted by any other path (an abandoned sign-up pruned, a provider sign-up undone)', () => {
  it('takes their personal team and memberships with them, by the database\'s cascades', async () => {
    const { member, teamId } = await staffedTeam(app)
    const personal = await personalTeamOf(member.id)
    await User.destroy({ where: { id: member.id } })
    expect(await Team.findByPk(personal.id)).toBeNull()
    expect(await TeamMember.count({ where: { userId: member.id } })).toBe(0)
    expect(await TeamMember.count({ where: { teamId } })).toBe(2)
  })
})
