import { addMember, teams } from '../helpers/teams.js'
import { makeUser } from '../helpers/test-app.js'
import type { GuardedRoute, StepUpSubject } from './types.js'

/** A shared team the subject owns, made through the API (creating one needs no confirmation). */
async function ownTeam({ app, cookies }: StepUpSubject): Promise<number> {
  const res = await teams(app, cookies).create('Step-up')
  if (res.status !== 201) throw new Error(`team not created: ${res.status}`)
  return res.body.team.id as number
}

export const guardedRoutes: GuardedRoute[] = [
  {
    name: 'delete a team',
    request: async (subject) => ({ method: 'delete', path: `/api/teams/${await ownTeam(subject)}` }),
    success: 204,
  },
  {
    name: "transfer a team's ownership",
    request: async (subject) => {
      const teamId = await ownTeam(subject)
      const member = await makeUser()
      await addMember(teamId, member.id)
      return { method: 'post', path: `/api/teams/${teamId}/transfer`, body: { user_id: member.id } }
    },
    success: 200,
  },
  {
    name: 'make a member an owner',
    request: async (subject) => {
      const teamId = await ownTeam(subject)
      const member = await makeUser()
      await addMember(teamId, member.id)
      return { method: 'patch', path: `/api/teams/${teamId}/members/${member.id}`, body: { role: 'owner' } }
    },
    success: 200,
  },
  {
    name: "change another owner's role",
    request: async (subject) => {
      const teamId = await ownTeam(subject)
      const owner = await makeUser()
      await addMember(teamId, owner.id, 'owner')
      return { method: 'patch', path: `/api/teams/${teamId}/members/${owner.id}`, body: { role: 'member' } }
    },
    success: 200,
  },
]
