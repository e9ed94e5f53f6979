import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { SecurityEvent } from '../src/kernel/models/index.js'
import { newTeam, person, staffedTeam, teams } from './helpers/teams.js'
import { login, makeUser, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
let app: TestApp['app']
beforeAll(async () => {
  ;({ app } = await t.build())
})

const eventsOf = async (userId: number, type: string) =>
  (await SecurityEvent.findAll({ where: { userId, type }, order: [['id', 'ASC']] })).map((event) => JSON.parse(event.meta ?? 'null') as Record<string, unknown>)

describe('the teams\' events, through the security core with meta.teamId', () => {
  it('team_created for the creator', async () => {
    const owner = await person(app)
    const teamId = await newTeam(app, owner, 'Acme')
    expect(await eventsOf(owner.id, 'team_created')).toEqual([{ teamId, name: 'Acme' }])
  })

  it('member_role_changed for the member, member_removed for the removed one, ownership_transferred for the old owner', async () => {
    const { owner, admin, member, teamId } = await staffedTeam(app)
    await teams(app, owner.cookies).setRole(teamId, member.id, 'admin')
    expect(await eventsOf(member.id, 'member_role_changed')).toEqual([{ teamId, from: 'member', to: 'admin', by: owner.id }])
    await teams(app, owner.cookies).removeMember(teamId, member.id)
    expect(await eventsOf(member.id, 'member_removed')).toEqual([{ teamId, by: owner.id }])
    await teams(app, owner.cookies).transfer(teamId, admin.id)
    expect(await eventsOf(owner.id, 'ownership_transferred')).toEqual([{ teamId, to: admin.id }])
  })

  it('a refused change records nothing', async () => {
    const { owner, admin, teamId } = await staffedTeam(app)
    expect((await teams(app, admin.cookies).setRole(teamId, owner.id, 'member')).status).toBe(403)
    expect((await teams(app, owner.cookies).removeMember(teamId, owner.id)).status).toBe(422)
    expect(await eventsOf(owner.id, 'member_role_changed')).toEqual([])
    expect(await eventsOf(owner.id, 'member_removed')).toEqual([])
  })

  it('team_deleted for the owner who deleted it', async () => {
    const owner = await person(app)
    const teamId = await newTeam(app, owner, 'Gone')
    expect((await teams(app, owner.cookies).remove(teamId)).status).toBe(204)
    expect(await eventsOf(owner.id, 'team_deleted')).toEqual([{ teamId, name: 'Gone' }])
  })
})

describe('GET /api/teams/:id/activity', () => {
  it('the team\'s events, newest first, in the account activity\'s shape; no other team\'s', async () => {
    const { owner, member, teamId } = await staffedTeam(app)
    await teams(app, owner.cookies).setRole(teamId, member.id, 'admin')
    await teams(app, owner.cookies).removeMember(teamId, member.id)
    // Another team, and one whose id starts with this one's digits, must not show.
    await newTeam(app, owner, 'Other')
    const res = await teams(app, owner.cookies).activity(teamId)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ current_page: 1, per_page: 10, total: 3, path: `/api/teams/${teamId}/activity` })
    expect(res.body.data.data.map((event: { type: string }) => event.type)).toEqual(['member_removed', 'member_role_changed', 'team_created'])
    // The removed member's row: none of the remover's address, device or session.
    expect(res.body.data.data[0]).toEqual({ id: expect.any(Number), type: 'member_removed', ip: null, device: 'Unknown device', createdAt: expect.any(String), current: false, impersonatorId: null })
  })

  it('the app\'s admin sees them in the user\'s activity', async () => {
    const owner = await person(app)
    await newTeam(app, owner)
    const admin = await makeUser({ role: 'admin' })
    const { cookies } = await login(app, admin.email)
    const res = await supertest(app).get(`/api/users/${owner.id}/activity`).set(withCookies(cookies))
    expect(res.status).toBe(200)
    expect(res.body.data.data.map((event: { type: string }) => event.type)).toContain('team_created')
  })
})

describe("whose address and device a team's event carries", () => {
  const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0'
  const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15'
  const ADMIN_IP = '198.51.100.23'
  const MEMBER_IP = '203.0.113.57'
  type Row = { type: string; ip: string | null; device: string; current: boolean }

  it("an actor's address and device go on their own rows only; a team's activity shows each viewer only their own", async () => {
    const proxied = await t.build({ env: { TRUST_PROXY: '1' } })
    const { owner, admin, member, teamId } = await staffedTeam(proxied.app)
    const from = (who: { cookies: Record<string, string> }, ip: string, agent: string) => (method: 'patch' | 'post' | 'delete', path: string, body: object = {}) =>
      supertest(proxied.app)[method](path).set(withCookies(who.cookies)).set('X-Forwarded-For', ip).set('User-Agent', agent).send(body)
    const asAdmin = from(admin, ADMIN_IP, FIREFOX)
    const asMember = from(member, MEMBER_IP, SAFARI)
    // The team's admin changes the member's role (the member's row); the member then leaves (their own row).
    expect((await asAdmin('patch', `/api/teams/${teamId}/members/${member.id}`, { role: 'admin' })).status).toBe(200)
    expect((await asMember('delete', `/api/teams/${teamId}/members/${member.id}`)).status).toBe(204)
    // And the admin makes a team of their own: their own row.
    const ownTeam = (await asAdmin('post', '/api/teams', { name: 'Own' })).body.team.id as number

    const activityOf = async (cookies: Record<string, string>) =>
      (await supertest(proxied.app).get('/api/account/activity?size=50').set(withCookies(cookies))).body.data.data as Row[]
    const members = await activityOf(member.cookies)
    expect(members.find((event) => event.type === 'member_role_changed')).toMatchObject({ ip: null, device: 'Unknown device', current: false })
    expect(members.find((event) => event.type === 'member_removed')).toMatchObject({ ip: MEMBER_IP, device: 'Safari on macOS', current: true })
    expect(JSON.stringify(members)).not.toContain(ADMIN_IP)
    expect(JSON.stringify(members)).not.toContain('Firefox')

    // The owner sees the team's events, but neither the admin's nor the member's address or device.
    const teamRows = (await teams(proxied.app, owner.cookies).activity(teamId)).body.data.data as Row[]
    expect(teamRows.map((event) => event.type)).toEqual(expect.arrayContaining(['member_role_changed', 'member_removed']))
    for (const text of [ADMIN_IP, MEMBER_IP, 'Firefox', 'Safari']) expect(JSON.stringify(teamRows)).not.toContain(text)

    const admins = await activityOf(admin.cookies)
    expect(admins.find((event) => event.type === 'team_created')).toMatchObject({ ip: ADMIN_IP, device: 'Firefox on Linux', current: true })
    const ownRows = (await teams(proxied.app, admin.cookies).activity(ownTeam)).body.data.data as Row[]
    expect(ownRows).toEqual([expect.objectContaining({ type: 'team_created', ip: ADMIN_IP, device: 'Firefox on Linux', current: true })])
  })
})
