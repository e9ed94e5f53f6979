import { z } from 'zod'
import { activityJson, activityQuery, messageBody, paginatedBody, type RouteDoc, timestamp } from '../../kernel/index.js'
import { acceptInvitationSchema } from './controllers/invitation-accept.js'
import { sendInvitationSchema } from './controllers/invitation-send.js'
import { showInvitationSchema } from './controllers/invitation-show.js'
import { memberQuery, memberRoleSchema, transferSchema } from './controllers/members.js'
import { INVITATION_ROLES } from './models/invitation.js'
import { switchTeamSchema, teamNameSchema } from './controllers/teams.js'

const tag = 'Teams'
const role = z.enum(['owner', 'admin', 'member'])
const team = z.object({ id: z.number().int(), name: z.string(), personal: z.boolean(), role })
const teamBody = z.object({ team })
const invitationBody = z.object({ invitation: z.object({ team: z.object({ name: z.string() }), inviter: z.object({ name: z.string() }), role: z.enum(INVITATION_ROLES) }) })
// A team the user cannot see is a 404; a role that does not allow the action a 403.
const inTeam = { tag, auth: true, errors: [404] } as const
const byRole = { tag, auth: true, errors: [403, 404] } as const

/** The teams layer's routes. */
export const routeDocs: RouteDoc[] = [
  { method: 'get', path: '/api/teams', tag, auth: true, summary: "The user's teams", responses: { 200: { description: 'The personal team first', body: z.object({ data: z.array(team.extend({ current: z.boolean() })) }) } } },
  { method: 'post', path: '/api/teams', tag, auth: true, errors: [429], summary: 'Create a team', body: teamNameSchema, responses: { 201: { description: 'Created; now current', body: teamBody } } },
  { method: 'put', path: '/api/teams/current', tag, auth: true, errors: [404], summary: 'Switch the current team', body: switchTeamSchema, responses: { 200: { description: 'The team', body: teamBody } } },
  { method: 'get', path: '/api/teams/:id', ...inTeam, summary: 'A team', responses: { 200: { description: 'The team, with the user’s role', body: teamBody } } },
  { method: 'patch', path: '/api/teams/:id', ...byRole, summary: 'Rename a team', body: teamNameSchema, responses: { 200: { description: 'The team', body: teamBody } } },
  // A personal team is never deleted (422).
  { method: 'delete', path: '/api/teams/:id', ...byRole, errors: [403, 404, 422], summary: 'Delete a team', responses: { 204: { description: 'Deleted' } } },
  {
    method: 'get', path: '/api/teams/:id/members', ...inTeam, summary: 'The members', query: memberQuery,
    responses: { 200: { description: 'One page of members', body: paginatedBody(z.object({ id: z.number().int(), name: z.string(), email: z.string(), role, joinedAt: timestamp })) } },
  },
  // Making an owner or changing an owner's role is step-up, as a transfer is (403 `errors.confirm`).
  {
    method: 'patch', path: '/api/teams/:id/members/:userId', ...byRole, summary: "Change a member's role", body: memberRoleSchema,
    responses: { 200: { description: 'The member', body: z.object({ member: z.object({ id: z.number().int(), role }) }) } },
  },
  // The last owner cannot leave (422).
  { method: 'delete', path: '/api/teams/:id/members/:userId', ...byRole, errors: [403, 404, 422], summary: 'Remove a member, or leave', responses: { 204: { description: 'Removed' } } },
  { method: 'post', path: '/api/teams/:id/transfer', ...byRole, summary: 'Transfer ownership', body: transferSchema, responses: { 200: { description: 'The team, the caller now its admin', body: teamBody } } },
  { method: 'get', path: '/api/teams/:id/activity', ...byRole, summary: "The team's activity", query: activityQuery, responses: { 200: { description: 'Newest first', body: paginatedBody(activityJson) } } },
  {
    method: 'get', path: '/api/teams/:id/invitations', ...byRole, summary: 'The pending invitations',
    responses: { 200: { description: 'Newest first', body: z.object({ data: z.array(z.object({ id: z.number().int(), email: z.string(), role, invitedBy: z.number().int(), expiresAt: timestamp })) }) } },
  },
  { method: 'post', path: '/api/teams/:id/invitations', ...byRole, errors: [403, 404, 429], summary: 'Invite an address', body: sendInvitationSchema, responses: { 202: { description: 'The same answer for every address', body: messageBody } } },
  { method: 'delete', path: '/api/teams/:id/invitations/:invitationId', ...byRole, summary: 'Revoke an invitation', responses: { 204: { description: 'Revoked' } } },
  { method: 'post', path: '/api/invitations/show', tag, auth: true, summary: 'See an invitation: its team and sender', body: showInvitationSchema, responses: { 200: { description: "The team's and the sender's names, to the invited account only", body: invitationBody } } },
  { method: 'post', path: '/api/invitations/accept', tag, auth: true, summary: 'Accept an invitation', body: acceptInvitationSchema, responses: { 200: { description: 'The team joined; now current', body: teamBody } } },
]
