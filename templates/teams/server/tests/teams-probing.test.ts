import { beforeAll, describe, expect, it } from 'vitest'
import { personalTeamOf, staffedTeam, teams } from './helpers/teams.js'
import { useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
let app: TestApp['app']
beforeAll(async () => {
  ;({ app } = await t.build())
})

/** Every route under one team id, as a prober would try it. */
const routes = (teamId: number | string, userId: number) =>
  [
    ['get', `/api/teams/${teamId}`, undefined],
    ['patch', `/api/teams/${teamId}`, { name: 'Mine now' }],
    ['delete', `/api/teams/${teamId}`, undefined],
    ['get', `/api/teams/${teamId}/members`, undefined],
    ['patch', `/api/teams/${teamId}/members/${userId}`, { role: 'member' }],
    ['delete', `/api/teams/${teamId}/members/${userId}`, undefined],
    ['post', `/api/teams/${teamId}/transfer`, { user_id: userId }],
    ['get', `/api/teams/${teamId}/activity`, undefined],
  ] as const

describe('id probing', () => {
  it('"no such team" and "not yours" answer the same 404, body and all, on every route', async () => {
    const { owner, outsider, teamId } = await staffedTeam(app)
    const theirs = routes(teamId, owner.id)
    const missing = routes(2_000_000_000, owner.id)
    for (const [index, [method, path, body]] of theirs.entries()) {
      const notYours = await teams(app, outsider.cookies).send(method, path, body)
      const [, missingPath] = missing[index]!
      const none = await teams(app, outsider.cookies).send(method, missingPath, body)
      expect(notYours.status, `${method} ${path}`).toBe(404)
      expect(none.status).toBe(404)
      expect(notYours.body).toEqual(none.body)
      expect(notYours.body).toEqual({ message: 'Not Found.' })
    }
    expect((await teams(app, owner.cookies).show(teamId)).body.team.name).toBe('Acme')
  })

  it('another user\'s personal team is as unknown as a missing one', async () => {
    const { owner, outsider } = await staffedTeam(app)
    const personal = await personalTeamOf(owner.id)
    for (const [method, path, body] of routes(personal.id, owner.id)) {
      expect((await teams(app, outsider.cookies).send(method, path, body)).status, `${method} ${path}`).toBe(404)
    }
    expect((await teams(app, outsider.cookies).switchTo(personal.id)).status).toBe(404)
  })

  it('ids that are no ids (text, zero, negative, huge, decimals) are 404 as well, never 500', async () => {
    const { outsider, owner } = await staffedTeam(app)
    for (const id of ['abc', '0', '-1', '99999999999999999999', '1.5', '%00', "1' OR '1'='1"]) {
      for (const [method, path, body] of routes(encodeURIComponent(id), owner.id)) {
        expect((await teams(app, outsider.cookies).send(method, path, body)).status, `${method} ${path}`).toBe(404)
      }
    }
  })

  it('a member asking about a user outside the team gets 404 for them, not 403', async () => {
    const { owner, outsider, teamId } = await staffedTeam(app)
    expect((await teams(app, owner.cookies).setRole(teamId, outsider.id, 'admin')).status).toBe(404)
    expect((await teams(app, owner.cookies).removeMember(teamId, outsider.id)).status).toBe(404)
    expect((await teams(app, owner.cookies).transfer(teamId, outsider.id)).status).toBe(404)
  })
})
