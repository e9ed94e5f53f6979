import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { Team } from '../src/features/teams/models/team.js'
import { TeamMember } from '../src/features/teams/models/team-member.js'
import { User } from '../src/kernel/models/index.js'
import { jar } from './helpers/cookies.js'
import { addMember, newTeam, person, personalTeamOf, teams } from './helpers/teams.js'
import { uniqueEmail, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
let app: TestApp['app']
beforeAll(async () => {
  ;({ app } = await t.build({ auth: { requireEmailVerification: false } }))
})

describe('the personal team', () => {
  it('registration makes "{name}\'s Team": the user its only member and owner, and current', async () => {
    const email = uniqueEmail('reg')
    const res = await supertest(app).post('/api/auth/register').send({ name: 'Rita', email, password: 'correct horse battery' })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const list = await teams(app, jar(res)).list()
    expect(list.status).toBe(200)
    expect(list.body).toEqual({ data: [{ id: expect.any(Number), name: "Rita's Team", personal: true, role: 'owner', current: true }] })
    const team = list.body.data[0]
    expect(await TeamMember.count({ where: { teamId: team.id } })).toBe(1)
    expect((await User.findByPk(res.body.user.id))!.currentTeamId).toBe(team.id)
  })

  it('a user created outside the API (user:create, the tests) has one as well', async () => {
    const owner = await person(app, 'made', 'Made')
    expect((await personalTeamOf(owner.id)).name).toBe("Made's Team")
  })
})

describe('GET /api/teams', () => {
  it('lists the user\'s teams, personal first, with the role and which is current; nobody else\'s', async () => {
    const owner = await person(app, 'owner', 'Olga')
    const other = await person(app, 'other')
    const a = await newTeam(app, owner, 'Zeta')
    const b = await newTeam(app, other, 'Beta')
    await addMember(b, owner.id, 'admin')
    const res = await teams(app, owner.cookies).list()
    expect(res.body.data).toEqual([
      { id: (await personalTeamOf(owner.id)).id, name: "Olga's Team", personal: true, role: 'owner', current: false },
      { id: b, name: 'Beta', personal: false, role: 'admin', current: false },
      { id: a, name: 'Zeta', personal: false, role: 'owner', current: true },
    ])
  })

  it('401 signed out', async () => {
    expect((await supertest(app).get('/api/teams')).status).toBe(401)
  })
})

describe('POST /api/teams', () => {
  it('201 {team}: the creator its owner, and it becomes current', async () => {
    const owner = await person(app)
    const res = await teams(app, owner.cookies).create('  Rocket Lab ')
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ team: { id: expect.any(Number), name: 'Rocket Lab', personal: false, role: 'owner' } })
    expect((await User.findByPk(owner.id))!.currentTeamId).toBe(res.body.team.id)
    expect((await TeamMember.findOne({ where: { teamId: res.body.team.id } }))!.toJSON()).toMatchObject({ userId: owner.id, role: 'owner' })
  })

  it.each([
    ['missing', undefined],
    ['empty', '   '],
    ['not a string', 5],
    ['too long', 'x'.repeat(256)],
    ['a line break', 'a\nb'],
  ])('422 errors.name for a name %s', async (_, name) => {
    const owner = await person(app)
    const before = await Team.count()
    const res = await teams(app, owner.cookies).create(name)
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ message: expect.any(String), errors: { name: [expect.any(String)] } })
    expect(await Team.count()).toBe(before)
  })

  it('Precognition: validated, nothing created', async () => {
    const owner = await person(app)
    const before = await Team.count()
    const res = await supertest(app).post('/api/teams').set(withCookies(owner.cookies)).set('Precognition', 'true').send({ name: 'Acme' })
    expect(res.status).toBe(204)
    expect(res.headers['precognition-success']).toBe('true')
    expect(await Team.count()).toBe(before)
  })

  it('a malformed body is 400, not 500', async () => {
    const owner = await person(app)
    const res = await supertest(app).post('/api/teams').set(withCookies(owner.cookies)).set('Content-Type', 'application/json').send('{"name":')
    expect(res.status).toBe(400)
  })
})

describe('PUT /api/teams/current', () => {
  it('200 {team}: one of the user\'s teams becomes current', async () => {
    const owner = await person(app)
    const personal = await personalTeamOf(owner.id)
    await newTeam(app, owner)
    const res = await teams(app, owner.cookies).switchTo(personal.id)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ team: { id: personal.id, name: personal.name, personal: true, role: 'owner' } })
    expect((await teams(app, owner.cookies).list()).body.data.find((team: { current: boolean }) => team.current).id).toBe(personal.id)
  })

  it('another\'s team, or none, is 404; a team_id that is no id is 422', async () => {
    const owner = await person(app)
    const other = await person(app)
    const theirs = await newTeam(app, other)
    expect((await teams(app, owner.cookies).switchTo(theirs)).status).toBe(404)
    expect((await teams(app, owner.cookies).switchTo(2_000_000_000)).status).toBe(404)
    for (const bad of [undefined, 'abc', -1, 0, 1.5, 2 ** 40]) {
      const res = await teams(app, owner.cookies).switchTo(bad)
      expect(res.status).toBe(422)
      expect(Object.keys(res.body.errors)).toEqual(['team_id'])
    }
  })
})

describe('GET, PATCH /api/teams/:id', () => {
  it('a member sees {team: {id, name, personal, role}}', async () => {
    const owner = await person(app)
    const member = await person(app)
    const teamId = await newTeam(app, owner, 'Acme')
    await addMember(teamId, member.id)
    const res = await teams(app, member.cookies).show(teamId)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ team: { id: teamId, name: 'Acme', personal: false, role: 'member' } })
  })

  it('an admin renames it: 200 {team}; a bad name 422', async () => {
    const owner = await person(app)
    const admin = await person(app)
    const teamId = await newTeam(app, owner)
    await addMember(teamId, admin.id, 'admin')
    const res = await teams(app, admin.cookies).rename(teamId, 'New name')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ team: { id: teamId, name: 'New name', personal: false, role: 'admin' } })
    expect((await Team.findByPk(teamId))!.name).toBe('New name')
    const bad = await teams(app, admin.cookies).rename(teamId, '')
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.body.errors)).toEqual(['name'])
  })
})

describe('DELETE /api/teams/:id', () => {
  it('204; the team and its memberships go; whoever had it current is back on their personal team', async () => {
    const owner = await person(app)
    const member = await person(app)
    const teamId = await newTeam(app, owner)
    await addMember(teamId, member.id)
    expect((await teams(app, member.cookies).switchTo(teamId)).status).toBe(200)
    const res = await teams(app, owner.cookies).remove(teamId)
    expect(res.status, JSON.stringify(res.body)).toBe(204)
    expect(await Team.findByPk(teamId)).toBeNull()
    expect(await TeamMember.count({ where: { teamId } })).toBe(0)
    for (const user of [owner, member]) {
      const personal = await personalTeamOf(user.id)
      expect((await User.findByPk(user.id))!.currentTeamId).toBe(personal.id)
      expect((await teams(app, user.cookies).list()).body.data).toEqual([expect.objectContaining({ id: personal.id, current: true })])
    }
    expect((await teams(app, owner.cookies).show(teamId)).status).toBe(404)
  })

  it('a personal team: 422, and it stays', async () => {
    const owner = await person(app)
    const personal = await personalTeamOf(owner.id)
    const res = await teams(app, owner.cookies).remove(personal.id)
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ message: expect.any(String), errors: { team: [expect.any(String)] } })
    expect(await Team.findByPk(personal.id)).not.toBeNull()
  })
})
