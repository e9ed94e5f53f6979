import { z } from 'zod'
import { exportActivityQuery } from '../../controllers/activity/export-activity.js'
import { activityQuery } from '../../security/activity.js'
import { allMatching, byIds } from '../../controllers/users/delete-users.js'
import { listUsersQuery } from '../../controllers/users/list-users.js'
import { updateUserSchema } from '../../controllers/users/update-user.js'
import { activityJson, paginatedBody, userBody, userJson } from '../schemas.js'
import type { RouteDoc } from '../types.js'

const tag = 'Users (admin)'
// Behind the admin role (403 for anyone else); step-up on what could take accounts over.
const admin = { tag, auth: true, errors: [403] } as const
const withId = { tag, auth: true, errors: [403, 404] } as const

/** `/api/users` and `/api/activity`: admins only. */
export function adminRouteDocs(): RouteDoc[] {
  return [
    { method: 'get', path: '/api/users', ...admin, summary: 'List users', query: listUsersQuery, responses: { 200: { description: 'One page of users', body: paginatedBody(userJson) } } },
    {
      method: 'delete', path: '/api/users', ...admin, summary: 'Delete users by id, or all matching a search', body: z.union([byIds, allMatching]),
      responses: { 200: { description: 'How many were deleted', body: z.object({ deleted: z.number().int() }) } },
    },
    { method: 'patch', path: '/api/users/:id', ...withId, summary: 'Rename a user or change its role', body: updateUserSchema, responses: { 200: { description: 'The user', body: userBody } } },
    { method: 'delete', path: '/api/users/:id/sessions', ...withId, summary: "Sign out every session of a user", responses: { 204: { description: 'Signed out' } } },
    { method: 'get', path: '/api/users/:id/activity', ...withId, summary: "A user's security activity", query: activityQuery, responses: { 200: { description: 'Newest first', body: paginatedBody(activityJson) } } },
    {
      method: 'get', path: '/api/activity/export', tag: 'Activity (admin)', auth: true, errors: [403], summary: 'Export credential events', query: exportActivityQuery,
      responses: { 200: { description: 'Every event of the range, streamed: one JSON object a line, or CSV', contentType: 'application/x-ndjson' } },
    },
  ]
}
