import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { people, staffedTeam, teams } from './helpers/teams.js'
import { useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
let app: TestApp['app']
let staff: Awaited<ReturnType<typeof people>>
beforeAll(async () => {
  // One owner makes a team for every row: more than a person may in an hour.
  ;({ app } = await t.build({ rateLimits: { teamsPerUser: { limit: 1000, windowMs: 60_000 } } }))
  staff = await people(app)
})

type Staff = Awaited<ReturnType<typeof staffedTeam>>
type Role = 'owner' | 'admin' | 'member' | 'outsider'

/**
 * Every team-scoped route, and what each role gets: the roles' matrix in one table. A row's
 * request acts on a fresh team per cell (the same four people), so no cell sees another's change. Someone who is not in
 * the team gets 404 everywhere (it does not exist for them); a member whose role falls short, 403.
 */
const ROUTES: { name: string; request(staff: Staff): { method: 'get' | 'post' | 'patch' | 'delete'; path: string; body?: object }; expected: Record<Role, number> }[] = [
  { name: 'GET /api/teams/:id', request: (s) => ({ method: 'get', path: `/api/teams/${s.teamId}` }), expected: { owner: 200, admin: 200, member: 200, outsider: 404 } },
  {
    name: 'PATCH /api/teams/:id',
    request: (s) => ({ method: 'patch', path: `/api/teams/${s.teamId}`, body: { name: 'Renamed' } }),
    expected: { owner: 200, admin: 200, member: 403, outsider: 404 },
  },
  { name: 'DELETE /api/teams/:id', request: (s) => ({ method: 'delete', path: `/api/teams/${s.teamId}` }), expected: { owner: 204, admin: 403, member: 403, outsider: 404 } },
  { name: 'GET /api/teams/:id/members', request: (s) => ({ method: 'get', path: `/api/teams/${s.teamId}/members` }), expected: { owner: 200, admin: 200, member: 200, outsider: 404 } },
  {
    name: "PATCH /api/teams/:id/members/:userId (the member's role)",
    request: (s) => ({ method: 'patch', path: `/api/teams/${s.teamId}/members/${s.member.id}`, body: { role: 'admin' } }),
    expected: { owner: 200, admin: 200, member: 403, outsider: 404 },
  },
  {
    name: "PATCH /api/teams/:id/members/:userId (an owner's role)",
    request: (s) => ({ method: 'patch', path: `/api/teams/${s.teamId}/members/${s.owner.id}`, body: { role: 'member' } }),
    // The owner is the last one: the rule answers before the role would.
    expected: { owner: 422, admin: 403, member: 403, outsider: 404 },
  },
  {
    name: 'DELETE /api/teams/:id/members/:userId (the admin)',
    request: (s) => ({ method: 'delete', path: `/api/teams/${s.teamId}/members/${s.admin.id}` }),
    // The admin itself leaves.
    expected: { owner: 204, admin: 204, member: 403, outsider: 404 },
  },
  {
    name: 'DELETE /api/teams/:id/members/:userId (the owner)',
    request: (s) => ({ method: 'delete', path: `/api/teams/${s.teamId}/members/${s.owner.id}` }),
    expected: { owner: 422, admin: 403, member: 403, outsider: 404 },
  },
  {
    name: 'POST /api/teams/:id/transfer',
    request: (s) => ({ method: 'post', path: `/api/teams/${s.teamId}/transfer`, body: { user_id: s.member.id } }),
    expected: { owner: 200, admin: 403, member: 403, outsider: 404 },
  },
  { name: 'GET /api/teams/:id/activity', request: (s) => ({ method: 'get', path: `/api/teams/${s.teamId}/activity` }), expected: { owner: 200, admin: 200, member: 403, outsider: 404 } },
]

describe.each(ROUTES)('$name', (route) => {
  it.each(['owner', 'admin', 'member', 'outsider'] as const)('as %s', async (role) => {
    const team = await staffedTeam(app, staff)
    const { method, path, body } = route.request(team)
    const res = await teams(app, team[role].cookies).send(method, path, body ?? {})
    expect(res.status, JSON.stringify(res.body)).toBe(route.expected[role])
    if (res.status >= 400) expect(res.body).toEqual(expect.objectContaining({ message: expect.any(String) }))
  })

  it('signed out: 401', async () => {
    const { method, path, body } = route.request(await staffedTeam(app, staff))
    expect((await supertest(app)[method](path).send(body ?? {})).status).toBe(401)
  })
})
