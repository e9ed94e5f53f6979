import { beforeAll, describe, expect, it } from 'vitest'
import { TeamMember } from '../src/features/teams/models/team-member.js'
import { addMember, newTeam, person, teams, type Person } from './helpers/teams.js'
import { useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
let app: TestApp['app']
let a: Person
let b: Person
beforeAll(async () => {
  // `a` makes a team for every round: more than a person may in an hour.
  ;({ app } = await t.build({ rateLimits: { teamsPerUser: { limit: 1000, windowMs: 60_000 } } }))
  a = await person(app, 'a')
  b = await person(app, 'b')
})

/** A team with two owners, `a` and `b`, and a member, so leaving or demoting is not emptying it. */
async function twoOwners(): Promise<number> {
  const teamId = await newTeam(app, a)
  await addMember(teamId, b.id, 'owner')
  await addMember(teamId, (await person(app, 'm')).id, 'member')
  return teamId
}

const owners = (teamId: number) => TeamMember.count({ where: { teamId, role: 'owner' } })
const ROUNDS = 5

describe('the last owner, under two simultaneous changes: one wins', () => {
  it('both owners leave at once: one 204, one 422, one owner left', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const teamId = await twoOwners()
      const answers = await Promise.all([teams(app, a.cookies).removeMember(teamId, a.id), teams(app, b.cookies).removeMember(teamId, b.id)])
      expect(answers.map((res) => res.status).sort()).toEqual([204, 422])
      expect(answers.find((res) => res.status === 422)!.body.errors).toEqual({ role: [expect.any(String)] })
      expect(await owners(teamId)).toBe(1)
    }
  })

  it('both owners demote themselves at once: one 200, one 422 errors.role', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const teamId = await twoOwners()
      const answers = await Promise.all([teams(app, a.cookies).setRole(teamId, a.id, 'admin'), teams(app, b.cookies).setRole(teamId, b.id, 'member')])
      expect(answers.map((res) => res.status).sort()).toEqual([200, 422])
      expect(await owners(teamId)).toBe(1)
    }
  })

  it('each demotes the other at once: the first wins, the second is no longer an owner (403)', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const teamId = await twoOwners()
      const answers = await Promise.all([teams(app, a.cookies).setRole(teamId, b.id, 'admin'), teams(app, b.cookies).setRole(teamId, a.id, 'admin')])
      expect(answers.map((res) => res.status).sort()).toEqual([200, 403])
      expect(await owners(teamId)).toBe(1)
    }
  })

  it('one leaves while the other demotes itself: never no owner', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const teamId = await twoOwners()
      const answers = await Promise.all([teams(app, a.cookies).removeMember(teamId, a.id), teams(app, b.cookies).setRole(teamId, b.id, 'admin')])
      expect(answers.map((res) => res.status).filter((status) => status === 422)).toHaveLength(1)
      expect(await owners(teamId)).toBe(1)
    }
  })

  it('a transfer racing the new owner\'s removal leaves a team with an owner', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const teamId = await newTeam(app, a)
      await addMember(teamId, b.id, 'admin')
      await Promise.all([teams(app, a.cookies).transfer(teamId, b.id), teams(app, b.cookies).removeMember(teamId, b.id)])
      expect(await owners(teamId)).toBe(1)
    }
  })
})
