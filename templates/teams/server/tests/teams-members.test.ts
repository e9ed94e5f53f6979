import { beforeAll, describe, expect, it } from 'vitest'
import { User } from '../src/kernel/models/index.js'
import { me } from './helpers/requests.js'
import { addMember, newTeam, person, personalTeamOf, roleIn, staffedTeam, teams } from './helpers/teams.js'
import { unconfirm } from './helpers/confirmation.js'
import { useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
let app: TestApp['app']
beforeAll(async () => {
  ;({ app } = await t.build())
})

describe('GET /api/teams/:id/members', () => {
  it('the users list\'s paginated shape, rows {id, name, email, role, joinedAt}, in join order', async () => {
    const { owner, admin, member, teamId } = await staffedTeam(app)
    const res = await teams(app, member.cookies).members(teamId)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      data: {
        data: [
          { id: owner.id, name: owner.name, email: owner.email, role: 'owner', joinedAt: expect.any(String) },
          { id: admin.id, name: admin.name, email: admin.email, role: 'admin', joinedAt: expect.any(String) },
          { id: member.id, name: member.name, email: member.email, role: 'member', joinedAt: expect.any(String) },
        ],
        current_page: 1,
        last_page: 1,
        per_page: 10,
        total: 3,
        path: `/api/teams/${teamId}/members`,
        from: 1,
        to: 3,
      },
    })
    expect(Number.isNaN(Date.parse(res.body.data.data[0].joinedAt))).toBe(false)
  })

  it('pages, searches name and e-mail (case-insensitively), and sorts', async () => {
    const owner = await person(app, 'owner', 'Zed')
    const teamId = await newTeam(app, owner)
    // Names whose order is the same under every database's collation.
    for (const name of ['Dan', 'Bob', 'Eve Élodie', 'Carla']) await addMember(teamId, (await person(app, 'm', name)).id)
    const names = (res: { body: { data: { data: { name: string }[] } } }) => res.body.data.data.map((row) => row.name)
    const page = await teams(app, owner.cookies).members(teamId, '?size=2&page=2')
    expect(page.body.data).toMatchObject({ current_page: 2, last_page: 3, per_page: 2, total: 5, from: 3, to: 4 })
    expect(names(page)).toEqual(['Bob', 'Eve Élodie'])

    expect(names(await teams(app, owner.cookies).members(teamId, '?sort=-name'))).toEqual(['Zed', 'Eve Élodie', 'Dan', 'Carla', 'Bob'])
    expect(names(await teams(app, owner.cookies).members(teamId, '?sort=name&size=2'))).toEqual(['Bob', 'Carla'])
    expect(names(await teams(app, owner.cookies).members(teamId, '?sort=-joinedAt&size=1'))).toEqual(['Carla'])
    const byRole = await teams(app, owner.cookies).members(teamId, '?sort=role')
    expect(byRole.body.data.data[0].role).toBe('owner')

    const found = await teams(app, owner.cookies).members(teamId, `?search=${encodeURIComponent('ÉLODIE')}`)
    expect(names(found)).toEqual(['Eve Élodie'])
    expect(found.body.data.total).toBe(1)
    const none = await teams(app, owner.cookies).members(teamId, '?search=nobody-here')
    expect(none.body.data).toMatchObject({ data: [], total: 0, from: null, to: null })
  })

  it.each([
    ['?sort=password', 'sort'],
    ['?sort=name,name', 'sort'],
    ['?size=101', 'size'],
    ['?page=0', 'page'],
  ])('%s is 422 on %s', async (query, field) => {
    const owner = await person(app)
    const teamId = await newTeam(app, owner)
    const res = await teams(app, owner.cookies).members(teamId, query)
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual([field])
  })
})

describe('PATCH /api/teams/:id/members/:userId', () => {
  it('the owner sets any role: 200, and the role is stored', async () => {
    const { owner, member, teamId } = await staffedTeam(app)
    const res = await teams(app, owner.cookies).setRole(teamId, member.id, 'admin')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ member: { id: member.id, role: 'admin' } })
    expect(await roleIn(teamId, member.id)).toBe('admin')
    expect((await teams(app, owner.cookies).setRole(teamId, member.id, 'owner')).status).toBe(200)
    expect(await roleIn(teamId, member.id)).toBe('owner')
  })

  it('an admin sets member or admin, but not owner, and never on an owner (403)', async () => {
    const { owner, admin, member, teamId } = await staffedTeam(app)
    expect((await teams(app, admin.cookies).setRole(teamId, member.id, 'admin')).status).toBe(200)
    expect((await teams(app, admin.cookies).setRole(teamId, member.id, 'member')).status).toBe(200)
    expect((await teams(app, admin.cookies).setRole(teamId, member.id, 'owner')).status).toBe(403)
    expect((await teams(app, admin.cookies).setRole(teamId, owner.id, 'member')).status).toBe(403)
    expect(await roleIn(teamId, owner.id)).toBe('owner')
    expect(await roleIn(teamId, member.id)).toBe('member')
  })

  it('the last owner cannot be demoted: 422 errors.role; with a second owner it can', async () => {
    const { owner, member, teamId } = await staffedTeam(app)
    const res = await teams(app, owner.cookies).setRole(teamId, owner.id, 'admin')
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ message: expect.any(String), errors: { role: [expect.any(String)] } })
    await teams(app, owner.cookies).setRole(teamId, member.id, 'owner')
    expect((await teams(app, owner.cookies).setRole(teamId, owner.id, 'admin')).status).toBe(200)
  })

  it('an unconfirmed owner session cannot make an owner nor touch one (step-up); member and admin roles need none', async () => {
    // A stolen session of the owner: promote the thief's member, then demote the real owner.
    const { owner, admin, member, teamId } = await staffedTeam(app)
    await unconfirm(owner.id)
    for (const [userId, role] of [[member.id, 'owner'], [owner.id, 'admin']] as const) {
      const res = await teams(app, owner.cookies).setRole(teamId, userId, role)
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ message: expect.any(String), errors: { confirm: [expect.any(String)] } })
    }
    expect(await roleIn(teamId, member.id)).toBe('member')
    expect((await teams(app, owner.cookies).setRole(teamId, member.id, 'admin')).status).toBe(200)
    expect((await teams(app, owner.cookies).setRole(teamId, admin.id, 'member')).status).toBe(200)
  })

  it('a role that is not one is 422 errors.role; a user who is not a member is 404', async () => {
    const { owner, outsider, teamId } = await staffedTeam(app)
    for (const role of ['superuser', undefined, 3]) {
      const res = await teams(app, owner.cookies).setRole(teamId, owner.id, role)
      expect(res.status).toBe(422)
      expect(Object.keys(res.body.errors)).toEqual(['role'])
    }
    expect((await teams(app, owner.cookies).setRole(teamId, outsider.id, 'admin')).status).toBe(404)
    expect((await teams(app, owner.cookies).setRole(teamId, 'abc', 'admin')).status).toBe(404)
    expect((await teams(app, owner.cookies).setRole(teamId, 2_000_000_000, 'admin')).status).toBe(404)
  })
})

describe('DELETE /api/teams/:id/members/:userId', () => {
  it('an owner or an admin removes a member: 204', async () => {
    const { owner, admin, member, teamId } = await staffedTeam(app)
    expect((await teams(app, admin.cookies).removeMember(teamId, member.id)).status).toBe(204)
    expect(await roleIn(teamId, member.id)).toBeUndefined()
    expect((await teams(app, owner.cookies).removeMember(teamId, admin.id)).status).toBe(204)
    expect(await roleIn(teamId, admin.id)).toBeUndefined()
  })

  it('an admin cannot remove an owner, a member cannot remove anyone (403)', async () => {
    const { owner, admin, member, teamId } = await staffedTeam(app)
    expect((await teams(app, admin.cookies).removeMember(teamId, owner.id)).status).toBe(403)
    expect((await teams(app, member.cookies).removeMember(teamId, admin.id)).status).toBe(403)
    expect(await roleIn(teamId, owner.id)).toBe('owner')
    expect(await roleIn(teamId, admin.id)).toBe('admin')
  })

  it('anyone leaves with their own id; the current team falls back to the personal one', async () => {
    const { member, teamId } = await staffedTeam(app)
    await teams(app, member.cookies).switchTo(teamId)
    expect((await teams(app, member.cookies).removeMember(teamId, member.id)).status).toBe(204)
    expect((await User.findByPk(member.id))!.currentTeamId).toBe((await personalTeamOf(member.id)).id)
  })

  it('the last owner cannot leave (422); their personal team neither', async () => {
    const { owner, teamId } = await staffedTeam(app)
    const res = await teams(app, owner.cookies).removeMember(teamId, owner.id)
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ message: expect.any(String), errors: { role: [expect.any(String)] } })
    expect((await teams(app, owner.cookies).removeMember((await personalTeamOf(owner.id)).id, owner.id)).status).toBe(422)
  })

  it('a removed member\'s very next request to the team is refused, though their session goes on', async () => {
    const { owner, member, teamId } = await staffedTeam(app)
    expect((await teams(app, member.cookies).show(teamId)).status).toBe(200)
    expect((await teams(app, member.cookies).members(teamId)).status).toBe(200)
    expect((await teams(app, owner.cookies).removeMember(teamId, member.id)).status).toBe(204)
    expect((await teams(app, member.cookies).show(teamId)).status).toBe(404)
    expect((await teams(app, member.cookies).members(teamId)).status).toBe(404)
    expect((await me(app, member.cookies)).status).toBe(200)
    expect((await teams(app, member.cookies).list()).body.data.map((team: { id: number }) => team.id)).not.toContain(teamId)
  })
})

describe('POST /api/teams/:id/transfer', () => {
  it('the member becomes owner, the old owner admin: 200 {team} with the new role', async () => {
    const { owner, member, teamId } = await staffedTeam(app)
    const res = await teams(app, owner.cookies).transfer(teamId, member.id)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toEqual({ team: { id: teamId, name: 'Acme', personal: false, role: 'admin' } })
    expect(await roleIn(teamId, member.id)).toBe('owner')
    expect(await roleIn(teamId, owner.id)).toBe('admin')
  })

  it('to a non-member 404, to oneself or a bad id 422 errors.user_id', async () => {
    const { owner, outsider, teamId } = await staffedTeam(app)
    expect((await teams(app, owner.cookies).transfer(teamId, outsider.id)).status).toBe(404)
    for (const id of [owner.id, 'x', undefined]) {
      const res = await teams(app, owner.cookies).transfer(teamId, id)
      expect(res.status).toBe(422)
      expect(Object.keys(res.body.errors)).toEqual(['user_id'])
    }
    expect(await roleIn(teamId, owner.id)).toBe('owner')
  })
})
