import type { Express } from 'express'
import supertest from 'supertest'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { SsoTeamAccount } from '../src/features/sso/models/sso-team-account.js'
import { hashPassword } from '../src/kernel/index.js'
import { SecurityEvent, User } from '../src/kernel/models/index.js'
import { newUser, PATCH_OP, scimErrorBody, scimTeam } from './helpers/scim.js'
import { type SsoApp, useSsoApp, verifiedDomain } from './helpers/sso.js'
import { addMember, newTeam, person, personalTeamOf, roleIn, teams } from './helpers/teams.js'
import { login, makeUser, PASSWORD, useTestApps, withCookies } from './helpers/test-app.js'

const t = useTestApps()
const ssoApp = useSsoApp(t)
let app: Express
let dns: SsoApp['dns']

beforeAll(() => {
  ;({ app, dns } = ssoApp)
})

const byUserName = (userName: string) => `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`
const me = (cookies: Record<string, string>) => supertest(app).get('/api/auth/me').set(withCookies(cookies))

/** Gives a provisioned account a password and signs it in: a session the deprovisioning must end. */
async function signedIn(email: string) {
  await User.update({ password: await hashPassword(PASSWORD) }, { where: { email } })
  const { cookies } = await login(app, email)
  expect((await me(cookies)).status).toBe(200)
  return cookies
}

describe("Okta's SCIM 2.0 test plan (Runscope)", () => {
  it('lists with count=1&startIndex=1, finds no unknown userName, creates, gets by id and by filter, refuses a duplicate, deactivates', async () => {
    const { scim, email, teamId } = await scimTeam(app, dns)
    const page = await scim.get('/Users?count=1&startIndex=1')
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toMatch(/^application\/scim\+json/)
    expect(page.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], startIndex: 1, itemsPerPage: 1, totalResults: 1 })
    expect(page.body.Resources).toHaveLength(1)

    const userName = email()
    const none = await scim.get(byUserName(userName))
    expect(none.status).toBe(200)
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] })

    const created = await scim.post('/Users', newUser(userName, { externalId: 'okta-00u1' }))
    expect(created.status).toBe(201)
    expect(created.headers.location).toBe(`http://localhost:3000/scim/v2/Users/${created.body.id}`)
    expect(created.body).toMatchObject({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], id: expect.stringMatching(/^\d+$/), userName, externalId: 'okta-00u1', active: true, displayName: 'Ada Lovelace' })
    const id = created.body.id as string
    expect(await roleIn(teamId, Number(id))).toBe('member')
    expect(await SecurityEvent.findOne({ where: { userId: Number(id), type: 'sso_scim_provisioned' } })).toMatchObject({ meta: JSON.stringify({ teamId, created: true, reactivated: false }) })

    const one = await scim.get(`/Users/${id}`)
    expect(one.status).toBe(200)
    expect(one.body).toMatchObject({ id, userName, active: true, emails: [{ value: userName, primary: true, type: 'work' }] })
    const found = await scim.get(byUserName(userName))
    expect(found.body.totalResults).toBe(1)
    expect(found.body.Resources[0].id).toBe(id)

    const again = await scim.post('/Users', newUser(userName))
    expect(again.status).toBe(409)
    expect(again.body).toEqual(scimErrorBody(409, 'uniqueness'))

    const cookies = await signedIn(userName)
    const deactivated = await scim.patchOps(`/Users/${id}`, { op: 'replace', value: { active: false } })
    expect(deactivated.status).toBe(200)
    expect(deactivated.body.active).toBe(false)
    expect((await scim.get(`/Users/${id}`)).body.active).toBe(false)
    expect(await roleIn(teamId, Number(id))).toBeUndefined()
    expect((await me(cookies)).status).toBe(401)
  })

  it('pages with startIndex and count, the total counted over the whole team', async () => {
    const { scim, email } = await scimTeam(app, dns)
    for (let i = 0; i < 4; i++) expect((await scim.post('/Users', newUser(email(`p${i}`)))).status).toBe(201)
    const first = await scim.get('/Users?startIndex=1&count=2')
    const second = await scim.get('/Users?startIndex=3&count=2')
    const last = await scim.get('/Users?startIndex=5&count=2')
    expect([first.body.totalResults, second.body.totalResults, last.body.totalResults]).toEqual([5, 5, 5])
    expect([first.body.Resources.length, second.body.Resources.length, last.body.Resources.length]).toEqual([2, 2, 1])
    expect(second.body.startIndex).toBe(3)
    const ids = [...first.body.Resources, ...second.body.Resources, ...last.body.Resources].map((user: { id: string }) => user.id)
    expect(new Set(ids).size).toBe(5)
    expect((await scim.get('/Users?count=0')).body).toMatchObject({ totalResults: 5, Resources: [] })
  })

  it('finds by externalId, and answers a filter it cannot parse with 400 invalidFilter', async () => {
    const { scim, email } = await scimTeam(app, dns)
    const created = await scim.post('/Users', newUser(email(), { externalId: 'ext-42' }))
    const found = await scim.get(`/Users?filter=${encodeURIComponent('externalId eq "ext-42"')}`)
    expect(found.body.Resources.map((user: { id: string }) => user.id)).toEqual([created.body.id])
    const other = await scim.get(`/Users?filter=${encodeURIComponent(`emails[type eq "work"].value eq "${created.body.userName}"`)}`)
    expect(other.body.Resources.map((user: { id: string }) => user.id)).toEqual([created.body.id])
    const bad = await scim.get(`/Users?filter=${encodeURIComponent('userName xx "a"')}`)
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual(scimErrorBody(400, 'invalidFilter'))
  })
})

describe("Entra ID's SCIM validator", () => {
  it('matches userName case-insensitively', async () => {
    const { scim, email } = await scimTeam(app, dns)
    const userName = email('Grace.Hopper')
    const created = await scim.post('/Users', newUser(userName.toUpperCase()))
    expect(created.status).toBe(201)
    expect(created.body.userName).toBe(userName.toLowerCase())
    expect((await scim.get(byUserName(userName.toUpperCase()))).body.totalResults).toBe(1)
  })

  it('takes a path-less Replace with several attributes, and "False" and "True" for active', async () => {
    const { scim, email, teamId } = await scimTeam(app, dns)
    const userName = email()
    const { body } = await scim.post('/Users', newUser(userName))
    const renamed = await scim.patchOps(`/Users/${body.id}`, { op: 'Replace', value: { displayName: 'Grace Hopper', 'name.givenName': 'Grace', externalId: 'entra-1' } })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toMatchObject({ displayName: 'Grace Hopper', externalId: 'entra-1' })
    expect((await User.findByPk(Number(body.id)))!.name).toBe('Grace Hopper')

    const cookies = await signedIn(userName)
    const off = await scim.patchOps(`/Users/${body.id}`, { op: 'Replace', path: 'active', value: 'False' })
    expect(off.status).toBe(200)
    expect(off.body.active).toBe(false)
    expect((await me(cookies)).status).toBe(401)
    expect((await User.findByPk(Number(body.id)))!.suspendedAt).not.toBeNull()

    const on = await scim.patchOps(`/Users/${body.id}`, { op: 'Replace', value: { active: 'True' } })
    expect(on.body.active).toBe(true)
    expect(await roleIn(teamId, Number(body.id))).toBe('member')
    expect((await User.findByPk(Number(body.id)))!.suspendedAt).toBeNull()
    expect((await login(app, userName)).cookies).toBeDefined()
  })

  it('refuses other strings for active, and an unknown operation', async () => {
    const { scim, email } = await scimTeam(app, dns)
    const { body } = await scim.post('/Users', newUser(email()))
    expect((await scim.patchOps(`/Users/${body.id}`, { op: 'Replace', path: 'active', value: 'nope' })).body).toEqual(scimErrorBody(400, 'invalidValue'))
    expect((await scim.patchOps(`/Users/${body.id}`, { op: 'Move', path: 'active', value: false })).status).toBe(400)
    expect((await scim.patch(`/Users/${body.id}`, { Operations: [{ op: 'replace', value: { active: false } }] })).status).toBe(400)
    expect((await scim.get(`/Users/${body.id}`)).body.active).toBe(true)
  })
})

describe('provisioning', () => {
  it("refuses an address outside the team's verified domains, another team's domain included", async () => {
    const { scim } = await scimTeam(app, dns)
    const other = await scimTeam(app, dns)
    for (const userName of ['someone@gmail.example', other.email(), 'not-an-address']) {
      const res = await scim.post('/Users', newUser(userName))
      expect(res.status, userName).toBe(400)
      expect(res.body).toEqual(scimErrorBody(400, 'invalidValue'))
    }
    expect(await User.count({ where: { email: 'someone@gmail.example' } })).toBe(0)
    const missing = await scim.post('/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], externalId: 'x' })
    expect(missing.body).toEqual(scimErrorBody(400, 'invalidValue'))
  })

  it('adds an existing account of a verified domain to the team; deactivated, it only loses the team', async () => {
    const { scim, domain, teamId } = await scimTeam(app, dns)
    const existing = await makeUser({ email: `already-${Date.now()}@${domain}` })
    const { cookies } = await login(app, existing.email)
    const created = await scim.post('/Users', newUser(existing.email))
    expect(created.status).toBe(201)
    expect(created.body.id).toBe(String(existing.id))
    expect(await roleIn(teamId, existing.id)).toBe('member')
    expect((await SsoTeamAccount.findOne({ where: { teamId, userId: existing.id } }))!.created).toBe(false)

    expect((await scim.patchOps(`/Users/${existing.id}`, { op: 'replace', path: 'active', value: false })).body.active).toBe(false)
    expect(await roleIn(teamId, existing.id)).toBeUndefined()
    expect((await me(cookies)).status).toBe(200)
    expect((await User.findByPk(existing.id))!.suspendedAt).toBeNull()
    const event = await SecurityEvent.findOne({ where: { userId: existing.id, type: 'sso_scim_deprovisioned' } })
    expect(JSON.parse(event!.meta!)).toEqual({ teamId, deleted: false, suspended: false })
  })

  it("gives a new member the connection's default role, and keeps an existing member's", async () => {
    const { scim, teamId, owner, domain } = await scimTeam(app, dns)
    const admin = await makeUser({ email: `admin-${Date.now()}@${domain}` })
    await addMember(teamId, admin.id, 'admin')
    expect((await scim.post('/Users', newUser(admin.email))).status).toBe(409)
    expect(await roleIn(teamId, admin.id)).toBe('admin')
    expect((await scim.get(`/Users/${owner.id}`)).body.active).toBe(true)
  })

  it('refuses to deactivate or delete an owner of the team', async () => {
    const { scim, owner, teamId } = await scimTeam(app, dns)
    expect((await scim.patchOps(`/Users/${owner.id}`, { op: 'replace', value: { active: false } })).body).toEqual(scimErrorBody(400, 'mutability'))
    expect((await scim.delete(`/Users/${owner.id}`)).status).toBe(400)
    expect(await roleIn(teamId, owner.id)).toBe('owner')
    expect((await me(owner.cookies)).status).toBe(200)
  })
})

describe("through the teams' own member actions", () => {
  it("joins and leaves as the teams layer has it: its events in the team's activity, the current team back to the personal one", async () => {
    const { scim, email, teamId, owner } = await scimTeam(app, dns)
    const activity = async () => ((await teams(app, owner.cookies).activity(teamId)).body.data.data as { type: string }[]).map((event) => event.type)
    const ids: number[] = []
    for (const leave of [(id: number) => scim.patchOps(`/Users/${id}`, { op: 'replace', value: { active: false } }), (id: number) => scim.delete(`/Users/${id}`)]) {
      const created = await scim.post('/Users', newUser(email()))
      expect(created.status).toBe(201)
      const id = Number(created.body.id)
      ids.push(id)
      expect((await activity()).slice(0, 2)).toEqual(['sso_scim_provisioned', 'member_added'])
      await User.update({ currentTeamId: teamId }, { where: { id } })
      expect([200, 204]).toContain((await leave(id)).status)
      expect(await roleIn(teamId, id)).toBeUndefined()
      expect((await User.findByPk(id))!.currentTeamId).toBe((await personalTeamOf(id)).id)
      expect((await activity()).slice(0, 2)).toEqual(['sso_scim_deprovisioned', 'member_removed'])
    }
    const removed = await SecurityEvent.findAll({ where: { userId: ids, type: 'member_removed' }, order: [['id', 'ASC']] })
    expect(removed.map((event) => JSON.parse(event.meta!))).toEqual([{ teamId, via: 'scim' }, { teamId, via: 'scim' }])
  })
})

describe('an account SCIM makes', () => {
  it("is made with the team's mark and membership or not at all", async () => {
    const { scim, email, teamId } = await scimTeam(app, dns)
    const userName = email()
    const mark = vi.spyOn(SsoTeamAccount, 'findOrCreate').mockRejectedValueOnce(new Error('the mark fails'))
    try {
      expect((await scim.post('/Users', newUser(userName))).status).toBe(500)
    } finally {
      mark.mockRestore()
    }
    expect(await User.findOne({ where: { email: userName } })).toBeNull()
    const created = await scim.post('/Users', newUser(userName))
    expect(created.status).toBe(201)
    expect((await SsoTeamAccount.findOne({ where: { teamId, userId: Number(created.body.id) } }))!.created).toBe(true)
  })
})

describe('PUT', () => {
  it("replaces externalId, name and active, and refuses a new userName (the account's address)", async () => {
    const { scim, email } = await scimTeam(app, dns)
    const userName = email()
    const { body } = await scim.post('/Users', newUser(userName))
    const replaced = await scim.put(`/Users/${body.id}`, newUser(userName, { externalId: 'put-1', displayName: 'Ada King', active: true }))
    expect(replaced.status).toBe(200)
    expect(replaced.body).toMatchObject({ id: body.id, externalId: 'put-1', displayName: 'Ada King', active: true })
    const moved = await scim.put(`/Users/${body.id}`, newUser(email()))
    expect(moved.status).toBe(400)
    expect(moved.body).toEqual(scimErrorBody(400, 'mutability'))
    expect((await scim.put('/Users/999999999', newUser(userName))).status).toBe(404)
  })
})

describe('DELETE', () => {
  it("removes the person from the team and, the team having made the account, suspends it and ends its sessions", async () => {
    const { scim, email, teamId } = await scimTeam(app, dns)
    const userName = email()
    const { body } = await scim.post('/Users', newUser(userName))
    const cookies = await signedIn(userName)
    const second = await signedIn(userName)

    const res = await scim.delete(`/Users/${body.id}`)
    expect(res.status).toBe(204)
    expect((await me(cookies)).status).toBe(401)
    expect((await me(second)).status).toBe(401)
    expect((await scim.get(`/Users/${body.id}`)).status).toBe(404)
    expect((await scim.get(byUserName(userName))).body.totalResults).toBe(0)
    expect(await roleIn(teamId, Number(body.id))).toBeUndefined()
    const login403 = await supertest(app).post('/api/auth/login').send({ email: userName, password: PASSWORD })
    expect(login403.status).toBe(403)
    const event = await SecurityEvent.findOne({ where: { userId: Number(body.id), type: 'sso_scim_deprovisioned' } })
    expect(JSON.parse(event!.meta!)).toEqual({ teamId, deleted: true, suspended: true })

    // Provisioned again, the account comes back: the suspension was this team's own.
    const back = await scim.post('/Users', newUser(userName))
    expect(back.status).toBe(201)
    expect(back.body.id).toBe(body.id)
    expect((await User.findByPk(Number(body.id)))!.suspendedAt).toBeNull()
  })

  it("leaves another team's SCIM user alone, and 404s an unknown id", async () => {
    const { scim } = await scimTeam(app, dns)
    const owner = await person(app, 'solo')
    const teamId = await newTeam(app, owner)
    await verifiedDomain(app, dns, owner.cookies, teamId)
    expect((await scim.delete('/Users/abc')).status).toBe(404)
    expect((await scim.delete(`/Users/${owner.id}`)).body).toEqual(scimErrorBody(404))
  })
})
