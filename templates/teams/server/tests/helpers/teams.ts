import type { Express } from 'express'
import supertest from 'supertest'
import { expect } from 'vitest'
import { Team } from '../../src/features/teams/models/team.js'
import { TeamMember, type TeamRole } from '../../src/features/teams/models/team-member.js'
import { login, makeUser, uniqueEmail, withCookies } from './test-app.js'

export type Cookies = Record<string, string>

/** The teams routes, with a browser's cookie jar. */
export const teams = (app: Express, cookies: Cookies) => {
  const send = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, body?: object) => {
    const request = supertest(app)[method](path).set(withCookies(cookies))
    return body === undefined ? request : request.send(body)
  }
  return {
    send,
    list: () => send('get', '/api/teams'),
    create: (name: unknown) => send('post', '/api/teams', { name }),
    switchTo: (teamId: unknown) => send('put', '/api/teams/current', { team_id: teamId }),
    show: (teamId: number | string) => send('get', `/api/teams/${teamId}`),
    rename: (teamId: number | string, name: unknown) => send('patch', `/api/teams/${teamId}`, { name }),
    remove: (teamId: number | string) => send('delete', `/api/teams/${teamId}`),
    members: (teamId: number | string, query = '') => send('get', `/api/teams/${teamId}/members${query}`),
    setRole: (teamId: number | string, userId: number | string, role: unknown) => send('patch', `/api/teams/${teamId}/members/${userId}`, { role }),
    removeMember: (teamId: number | string, userId: number | string) => send('delete', `/api/teams/${teamId}/members/${userId}`),
    transfer: (teamId: number | string, userId: unknown) => send('post', `/api/teams/${teamId}/transfer`, { user_id: userId }),
    activity: (teamId: number | string) => send('get', `/api/teams/${teamId}/activity`),
  }
}

export interface Person {
  id: number
  email: string
  name: string
  cookies: Cookies
}

/** A verified user written straight to the database (personal team included), signed in. */
export async function person(app: Express, tag = 'user', name = 'Test User'): Promise<Person> {
  const user = await makeUser({ email: uniqueEmail(tag), name })
  return { id: user.id, email: user.email, name: user.name, cookies: (await login(app, user.email)).cookies }
}

/** A new shared team of the signed-in user, through the API; its id. */
export async function newTeam(app: Express, owner: Person, name = 'Acme'): Promise<number> {
  const res = await teams(app, owner.cookies).create(name)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.team.id as number
}

/**
 * Makes `userId` a member straight in the database: how someone joins (an invitation) is not
 * what the teams tests are about, and it keeps them independent of the mail.
 */
export const addMember = (teamId: number, userId: number, role: TeamRole = 'member') => TeamMember.create({ teamId, userId, role })

/** Four people signed in, to be an owner, an admin, a member, and an outsider. */
export async function people(app: Express) {
  return {
    owner: await person(app, 'owner', 'Olivia Owner'),
    admin: await person(app, 'admin', 'Adam Admin'),
    member: await person(app, 'member', 'Mia Member'),
    outsider: await person(app, 'outsider', 'Oscar Outsider'),
  }
}

/**
 * A new shared team with an owner, an admin, a member, and an outsider who belongs to none of
 * it: new people, or `staff` again (a table of cells each wanting a fresh team, not fresh sign-ins).
 */
export async function staffedTeam(app: Express, staff?: Awaited<ReturnType<typeof people>>) {
  const { owner, admin, member, outsider } = staff ?? (await people(app))
  const teamId = await newTeam(app, owner)
  await addMember(teamId, admin.id, 'admin')
  await addMember(teamId, member.id, 'member')
  return { owner, admin, member, outsider, teamId }
}

export const personalTeamOf = async (userId: number) => (await Team.findOne({ where: { personalUserId: userId } }))!

export const roleIn = async (teamId: number, userId: number) => (await TeamMember.findOne({ where: { teamId, userId } }))?.role
