import { z } from 'zod'
import { paginatedBody, userBody, userJson, type RouteDoc } from '../../kernel/index.js'
import { allMatching, byIds } from './controllers/delete-users.js'
import { listUsersQuery } from './controllers/list-users.js'
import { updateUserSchema } from './controllers/update-user.js'

const tag = 'Users (admin)'
// Behind the admin role (403 for anyone else); step-up on what could take accounts over.
const admin = { tag, auth: true, errors: [403] } as const
const withId = { tag, auth: true, errors: [403, 404] } as const

/** `/api/users`: admins only. */
export function adminUserRouteDocs(): RouteDoc[] {
  return [
    { method: 'get', path: '/api/users', ...admin, summary: 'List users', query: listUsersQuery, responses: { 200: { description: 'One page of users', body: paginatedBody(userJson) } } },
    {
      method: 'delete', path: '/api/users', ...admin, summary: 'Delete users by id, or all matching a search', body: z.union([byIds, allMatching]),
      responses: { 200: { description: 'How many were deleted', body: z.object({ deleted: z.number().int() }) } },
    },
    { method: 'patch', path: '/api/users/:id', ...withId, summary: 'Rename a user or change its role', body: updateUserSchema, responses: { 200: { description: 'The user', body: userBody } } },
    { method: 'delete', path: '/api/users/:id/sessions', ...withId, summary: "Sign out every session of a user", responses: { 204: { description: 'Signed out' } } },
  ]
}
