import { activityJson, activityQuery, paginatedBody, type RouteDoc } from '../../kernel/index.js'
import { exportActivityQuery } from './controllers/export-activity.js'

const account = { tag: 'Account', auth: true, errors: [429] } as const
const withId = { tag: 'Users (admin)', auth: true, errors: [403, 404] } as const

/** The credential events: the account's own, one user's (admins), every account's export (admins). */
export function activityRouteDocs(): RouteDoc[] {
  return [
    { method: 'get', path: '/api/account/activity', ...account, summary: 'The security activity', query: activityQuery, responses: { 200: { description: 'Newest first', body: paginatedBody(activityJson) } } },
    { method: 'get', path: '/api/users/:id/activity', ...withId, summary: "A user's security activity", query: activityQuery, responses: { 200: { description: 'Newest first', body: paginatedBody(activityJson) } } },
    {
      method: 'get', path: '/api/activity/export', tag: 'Activity (admin)', auth: true, errors: [403], summary: 'Export credential events', query: exportActivityQuery,
      responses: { 200: { description: 'Every event of the range, streamed: one JSON object a line, or CSV', contentType: 'application/x-ndjson' } },
    },
  ]
}
