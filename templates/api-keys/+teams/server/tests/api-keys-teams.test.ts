import type { Express } from 'express'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { ApiKey } from '../src/features/api-keys/models/api-key.js'
import { SecurityEvent, User } from '../src/kernel/models/index.js'
import { apiKeyApi, bearer, meWith } from './helpers/api-keys.js'
import { unconfirm } from './helpers/confirmation.js'
import { addMember, newTeam, person, roleIn, staffedTeam, teams, type Cookies } from './helpers/teams.js'
import { useTestApps, withCookies } from './helpers/test-app.js'

const t = useTestApps()
let app: Express

beforeAll(async () => {
  ;({ app } = await t.build({ auth: { requireEmailVerification: false } }))
})

/** The team-key routes with a browser's cookie jar. */
const teamKeys = (cookies: Cookies, teamId: number | string) => {
  const path = `/api/teams/${teamId}/api-keys`
  return {
    create: (body: object) => supertest(app).post(path).set(withCookies(cookies)).send(body),
    list: () => supertest(app).get(path).set(withCookies(cookies)),
    rename: (id: number | string, body: object) => supertest(app).patch(`${path}/${id}`).set(withCookies(cookies)).send(body),
    revoke: (id: number | string) => supertest(app).delete(`${path}/${id}`).set(withCookies(cookies)),
  }
}

/** A key of the team made through the API by `cookies`' user: the key and its JSON. */
async function teamKey(cookies: Cookies, teamId: number, body: object = {}) {
  const res = await teamKeys(cookies, teamId).create({ name: 'CI', scopes: ['read', 'write'], ...body })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return { key: res.body.key as string, apiKey: res.body.api_key as { id: number; prefix: string; role: string; createdBy: number } }
}

const withKey = (key: string) => ({
  get: (path: string) => supertest(app).get(path).set(bearer(key)),
  patch: (path: string, body: object) => supertest(app).patch(path).set(bearer(key)).send(body),
  post: (path: string, body: object) => supertest(app).post(path).set(bearer(key)).send(body),
  delete: (path: string) => supertest(app).delete(path).set(bearer(key)),
})

describe('making team keys: owners and admins, behind step-up, from a session', () => {
  it("an owner and an admin make one; it answers as an account's key does, with its role and maker", async () => {
    const { owner, admin, teamId } = await staffedTeam(app)
    for (const maker of [owner, admin]) {
      const res = await teamKeys(maker.cookies, teamId).create({ name: 'Deploy', scopes: ['read'] })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      expect(res.body.key).toMatch(/^cca_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/)
      expect(res.body.api_key).toEqual({
        id: expect.any(Number), name: 'Deploy', prefix: res.body.key.split('_').slice(0, 2).join('_'), scopes: ['read'],
        role: maker === owner ? 'owner' : 'admin', createdBy: maker.id,
        createdAt: expect.any(String), expiresAt: null, lastUsedAt: null, lastUsedIp: null,
      })
    }
  })

  it('a member gets 403 and an outsider 404, for every route', async () => {
    const { owner, member, outsider, teamId } = await staffedTeam(app)
    const { apiKey } = await teamKey(owner.cookies, teamId)
    for (const [who, status] of [[member, 403], [outsider, 404]] as const) {
      const api = teamKeys(who.cookies, teamId)
      expect((await api.create({ name: 'x', scopes: ['read'] })).status).toBe(status)
      expect((await api.list()).status).toBe(status)
      expect((await api.rename(apiKey.id, { name: 'y' })).status).toBe(status)
      expect((await api.revoke(apiKey.id)).status).toBe(status)
    }
    expect((await teamKeys(owner.cookies, teamId).list()).body.data).toHaveLength(1)
  })

  it('needs a confirmed session (403 errors.confirm); no admin scope, no role above the maker’s', async () => {
    const { owner, admin, teamId } = await staffedTeam(app)
    await unconfirm(admin.id)
    const unconfirmed = await teamKeys(admin.cookies, teamId).create({ name: 'x', scopes: ['read'] })
    expect(unconfirmed.status).toBe(403)
    expect(unconfirmed.body.errors).toEqual({ confirm: [expect.any(String)] })
    const api = teamKeys(owner.cookies, teamId)
    const adminScope = await api.create({ name: 'x', scopes: ['read', 'admin'] })
    expect(adminScope.status).toBe(422)
    expect(Object.keys(adminScope.body.errors)).toEqual(['scopes'])
    const admins = await person(app, 'admin2')
    await addMember(teamId, admins.id, 'admin')
    const above = await teamKeys(admins.cookies, teamId).create({ name: 'x', scopes: ['read'], role: 'owner' })
    expect(above.status).toBe(422)
    expect(Object.keys(above.body.errors)).toEqual(['role'])
    expect((await teamKeys(admins.cookies, teamId).create({ name: 'x', scopes: ['read'], role: 'member' })).body.api_key.role).toBe('member')
  })

  it("making them counts per user like the account's writes: past the limit, 429 with Retry-After", async () => {
    const limited = (await t.build({ auth: { requireEmailVerification: false }, rateLimits: { accountWritesPerUser: { limit: 2, windowMs: 60_000 } } })).app
    const owner = await person(limited, 'owner')
    const teamId = (await teams(limited, owner.cookies).create('Limited')).body.team.id as number
    const create = () => supertest(limited).post(`/api/teams/${teamId}/api-keys`).set(withCookies(owner.cookies)).send({ name: 'CI', scopes: ['read'] })
    expect((await create()).status).toBe(201)
    expect((await create()).status).toBe(201)
    const refused = await create()
    expect(refused.status).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
  })

  it('a key, even of the team with every scope, makes, lists and revokes no key (403)', async () => {
    const { owner, teamId } = await staffedTeam(app)
    const { key, apiKey } = await teamKey(owner.cookies, teamId)
    const path = `/api/teams/${teamId}/api-keys`
    expect((await withKey(key).post(path, { name: 'x', scopes: ['read'] })).status).toBe(403)
    expect((await withKey(key).get(path)).status).toBe(403)
    expect((await withKey(key).delete(`${path}/${apiKey.id}`)).status).toBe(403)
  })
})

describe('listing and revoking', () => {
  it("owners and admins see every key of the team, none of the account's; the account's list has none of the team's", async () => {
    const { owner, admin, teamId } = await staffedTeam(app)
    await teamKey(owner.cookies, teamId, { name: 'by owner' })
    await teamKey(admin.cookies, teamId, { name: 'by admin' })
    const personal = await apiKeyApi(app, owner.cookies).create({ name: 'mine', scopes: ['read'] })
    expect(personal.status).toBe(201)
    for (const who of [owner, admin]) {
      const list = await teamKeys(who.cookies, teamId).list()
      expect(list.status).toBe(200)
      expect(list.body.data.map((key: { name: string }) => key.name)).toEqual(['by admin', 'by owner'])
      expect(JSON.stringify(list.body)).not.toMatch(/cca_[A-Za-z0-9]{12}_/)
    }
    const mine = await apiKeyApi(app, owner.cookies).list()
    expect(mine.body.data.map((key: { name: string }) => key.name)).toEqual(['mine'])
    // Nor can the account's routes reach a team's key.
    const teamKeyId = (await teamKeys(owner.cookies, teamId).list()).body.data[0].id
    expect((await apiKeyApi(app, owner.cookies).revoke(teamKeyId)).status).toBe(404)
    // Nor another team's routes.
    const other = await newTeam(app, owner, 'Other')
    expect((await teamKeys(owner.cookies, other).revoke(teamKeyId)).status).toBe(404)
    expect((await teamKeys(owner.cookies, other).rename(teamKeyId, { name: 'z' })).status).toBe(404)
  })

  it("an admin renames and revokes the owner's key, with events carrying the team and never the key; its next request is a 401", async () => {
    const { owner, admin, teamId } = await staffedTeam(app)
    const { key, apiKey } = await teamKey(owner.cookies, teamId)
    expect((await withKey(key).get(`/api/teams/${teamId}`)).status).toBe(200)
    const renamed = await teamKeys(admin.cookies, teamId).rename(apiKey.id, { name: 'Renamed' })
    expect(renamed.status).toBe(200)
    expect(renamed.body.api_key.name).toBe('Renamed')
    expect((await teamKeys(admin.cookies, teamId).revoke(apiKey.id)).status).toBe(204)
    expect((await withKey(key).get(`/api/teams/${teamId}`)).status).toBe(401)
    expect((await teamKeys(admin.cookies, teamId).revoke(apiKey.id)).status).toBe(404)
    const created = await SecurityEvent.findOne({ where: { type: 'api_key_created', userId: owner.id } })
    const revoked = await SecurityEvent.findOne({ where: { type: 'api_key_revoked', userId: admin.id } })
    for (const event of [created, revoked]) {
      expect(event).not.toBeNull()
      const meta = typeof event!.meta === 'string' ? JSON.parse(event!.meta) : event!.meta
      expect(meta).toMatchObject({ teamId, prefix: apiKey.prefix })
      expect(JSON.stringify(event!.toJSON())).not.toContain(key.split('_')[2])
    }
  })
})

describe("a team's key acts in its team alone", () => {
  it("its team's routes and /api/auth/me; another team 403, and the account's and the app's routes 403", async () => {
    const { owner, teamId } = await staffedTeam(app)
    const other = await newTeam(app, owner, 'Other')
    const { key } = await teamKey(owner.cookies, teamId, { scopes: ['read', 'write'] })
    const as = withKey(key)
    expect((await as.get(`/api/teams/${teamId}`)).status).toBe(200)
    expect((await as.get(`/api/teams/${teamId}/members`)).status).toBe(200)
    const me = await meWith(app, key)
    expect(me.status).toBe(200)
    expect(me.body.user.id).toBe(owner.id)
    for (const path of [`/api/teams/${other}`, `/api/teams/${other}/members`, '/api/teams', '/api/account/activity', '/api/users', `/API/TEAMS/${other}`]) {
      const res = await as.get(path)
      expect(res.status, path).toBe(403)
      expect(res.body).toEqual({ message: expect.any(String) })
    }
    expect((await as.patch(`/api/teams/${other}`, { name: 'Taken' })).status).toBe(403)
    expect((await supertest(app).put('/api/teams/current').set(bearer(key)).send({ team_id: other })).status).toBe(403)
    expect((await as.patch('/api/account/profile', { name: 'x' })).status).toBe(403)
  })

  it('a write needs no CSRF check (no Origin, or any), as with any key', async () => {
    const { owner, teamId } = await staffedTeam(app)
    const { key } = await teamKey(owner.cookies, teamId)
    const plain = await as(key).patch(`/api/teams/${teamId}`, { name: 'Renamed by CI' })
    expect(plain.status, JSON.stringify(plain.body)).toBe(200)
    const evil = await supertest(app).patch(`/api/teams/${teamId}`).set(bearer(key)).set('Origin', 'https://evil.example').send({ name: 'From anywhere' })
    expect(evil.status).toBe(200)
    expect((await teams(app, owner.cookies).show(teamId)).body.team.name).toBe('From anywhere')
  })
})

const as = withKey

describe("its role: the lower of the key's and its maker's, read on each use", () => {
  it("a member-role key of an owner cannot do an admin's work; an admin-role key cannot touch owners", async () => {
    const { owner, member, teamId } = await staffedTeam(app)
    const second = await person(app, 'owner2')
    await addMember(teamId, second.id, 'owner')
    const memberKey = (await teamKey(owner.cookies, teamId, { role: 'member' })).key
    expect((await as(memberKey).get(`/api/teams/${teamId}`)).body.team.role).toBe('member')
    expect((await as(memberKey).patch(`/api/teams/${teamId}`, { name: 'No' })).status).toBe(403)
    expect((await as(memberKey).patch(`/api/teams/${teamId}/members/${member.id}`, { role: 'admin' })).status).toBe(403)
    const adminKey = (await teamKey(owner.cookies, teamId, { role: 'admin' })).key
    expect((await as(adminKey).patch(`/api/teams/${teamId}`, { name: 'Yes' })).status).toBe(200)
    expect((await as(adminKey).delete(`/api/teams/${teamId}/members/${second.id}`)).status).toBe(403)
    expect(await roleIn(teamId, second.id)).toBe('owner')
    expect((await as(adminKey).patch(`/api/teams/${teamId}/members/${member.id}`, { role: 'admin' })).status).toBe(200)
  })

  it("a demotion of its maker narrows the key at once; the maker's removal, the team's deletion or the maker's deletion: 401", async () => {
    const { owner, admin, teamId } = await staffedTeam(app)
    const { key } = await teamKey(admin.cookies, teamId)
    expect((await as(key).patch(`/api/teams/${teamId}`, { name: 'By key' })).status).toBe(200)
    expect((await teams(app, owner.cookies).setRole(teamId, admin.id, 'member')).status).toBe(200)
    expect((await as(key).get(`/api/teams/${teamId}`)).body.team.role).toBe('member')
    expect((await as(key).patch(`/api/teams/${teamId}`, { name: 'Not now' })).status).toBe(403)
    // Promoted again, the key is back to its own role, never above it.
    expect((await teams(app, owner.cookies).setRole(teamId, admin.id, 'admin')).status).toBe(200)
    expect((await as(key).patch(`/api/teams/${teamId}`, { name: 'Again' })).status).toBe(200)
    expect((await teams(app, owner.cookies).removeMember(teamId, admin.id)).status).toBe(204)
    expect((await as(key).get(`/api/teams/${teamId}`)).status).toBe(401)
    expect((await meWith(app, key)).status).toBe(401)

    const kept = await staffedTeam(app)
    const ownerKey = (await teamKey(kept.owner.cookies, kept.teamId)).key
    const adminKey = (await teamKey(kept.admin.cookies, kept.teamId)).key
    expect((await teams(app, kept.owner.cookies).remove(kept.teamId)).status).toBe(204)
    expect((await meWith(app, ownerKey)).status).toBe(401)
    expect(await ApiKey.count({ where: { teamId: kept.teamId } })).toBe(0)

    const third = await staffedTeam(app)
    const makerKey = (await teamKey(third.admin.cookies, third.teamId)).key
    await User.destroy({ where: { id: third.admin.id } })
    expect((await as(makerKey).get(`/api/teams/${third.teamId}`)).status).toBe(401)
    expect(adminKey).not.toBe(ownerKey)
  })
})
