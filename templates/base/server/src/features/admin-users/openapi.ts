import { z } from 'zod'
import { adminUserJson, paginatedBody, userBody, type RouteDoc } from '../../kernel/index.js'
import { allMatching, byIds } from './controllers/delete-users.js'
import { listUsersQuery } from './controllers/list-users.js'
import { suspendSchema } from './controllers/suspension.js'
import { updateUserSchema } from './controllers/update-user.js'

const tag = 'Users (admin)'
// Behind the admin role (403 for anyone else); step-up on what could take accounts over.
const admin = { tag, auth: true, errors: [403] } as const
const withId = { tag, auth: true, errors: [403, 404] } as const
const adminUserBody = z.object({ user: adminUserJson })

/** `/api/users`: admins only; and the end of an impersonation, on `/api/auth`. */
export function adminUserRouteDocs(): RouteDoc[] {
  return [
    { method: 'get', path: '/api/users', ...admin, summary: 'List users', query: listUsersQuery, responses: { 200: { description: 'One page of users', body: paginatedBody(adminUserJson) } } },
    {
      method: 'delete', path: '/api/users', ...admin, summary: 'Delete users by id, or all matching a search', body: z.union([byIds, allMatching]),
      responses: { 200: { description: 'How many were deleted', body: z.object({ deleted: z.number().int() }) } },
    },
    { method: 'patch', path: '/api/users/:id', ...withId, summary: 'Rename a user or change its role', body: updateUserSchema, responses: { 200: { description: 'The user', body: adminUserBody } } },
    { method: 'delete', path: '/api/users/:id/sessions', ...withId, summary: "Sign out every session of a user", responses: { 204: { description: 'Signed out' } } },
    {
      method: 'post', path: '/api/users/:id/suspension', ...withId, summary: 'Suspend a user: every session, key and grant ends, and sign-in is refused until the end date',
      body: suspendSchema, responses: { 200: { description: 'The user, suspended', body: adminUserBody } },
    },
    { method: 'delete', path: '/api/users/:id/suspension', ...withId, summary: 'Lift a suspension', responses: { 200: { description: 'The user, not suspended', body: adminUserBody } } },
    {
      method: 'post', path: '/api/users/:id/impersonation', ...withId, errors: [403, 404, 422], summary: 'Sign in as a user (not an admin) for an hour at most; its cookies replace the admin\'s',
      responses: { 200: { description: 'The user now signed in as', body: userBody } },
    },
    {
      method: 'delete', path: '/api/auth/impersonation', tag: 'Authentication', auth: true, errors: [403], summary: "End an impersonation: back to the admin's own session",
      responses: { 200: { description: 'The admin, signed in again', body: userBody } },
    },
  ]
}
