import { z } from 'zod'
import type { AppContext } from '../../context.js'
import { confirmEmailSchema } from '../../controllers/account/confirm-email-change.js'
import { confirmPasswordSchema } from '../../controllers/account/confirm-identity.js'
import { deleteAccountSchema } from '../../controllers/account/delete-account.js'
import { activityQuery } from '../../security/activity.js'
import { emailChangeSchema } from '../../controllers/account/request-email-change.js'
import { revokeOtherSessionsSchema } from '../../controllers/account/revoke-other-sessions.js'
import { updatePasswordSchema } from '../../controllers/account/update-password.js'
import { updateProfileSchema } from '../../controllers/account/update-profile.js'
import { layerConfirmMethods } from '../../security/confirmation.js'
import { activityJson, messageBody, paginatedBody, sessionJson, timestamp, userBody } from '../schemas.js'
import type { RouteDoc } from '../types.js'

const tag = 'Account'
// Every account route counts writes and wrong passwords per user (429); step-up answers 403 `errors.confirm`.
const account = { tag, auth: true, errors: [429] } as const
const stepUp = { tag, auth: true, errors: [403, 429] } as const
const none = (description: string) => ({ 204: { description } })

/** `/api/account`: the signed-in user's own account. */
export function accountRouteDocs(ctx: AppContext): RouteDoc[] {
  // `{password}`, or the field of a layer's way to confirm (`{code}`).
  const confirmBody = confirmPasswordSchema.partial().extend(
    Object.fromEntries(layerConfirmMethods(ctx.features).flatMap((method) => (method.field ? [[method.field, z.string().optional()]] : []))),
  )
  return [
    {
      method: 'post', path: '/api/account/email/confirm', tag, auth: 'optional', summary: 'Confirm a new e-mail address with the mailed token', body: confirmEmailSchema,
      responses: { 200: { description: 'The address changed; every other session signed out', body: userBody } }, errors: [429],
    },
    {
      method: 'get', path: '/api/account/confirm', ...account, summary: 'Whether this session is confirmed, and how it can confirm',
      responses: { 200: { description: 'The confirmation', body: z.object({ confirmed_until: timestamp.nullable(), methods: z.array(z.string()) }) } },
    },
    {
      method: 'post', path: '/api/account/confirm', ...account, summary: 'Confirm it is you (step-up)', body: confirmBody, precognitive: false,
      responses: { 200: { description: 'Confirmed until', body: z.object({ confirmed_until: timestamp }) } },
    },
    { method: 'patch', path: '/api/account/profile', ...account, summary: 'Update the profile', body: updateProfileSchema, responses: { 200: { description: 'The user', body: userBody } } },
    {
      method: 'post', path: '/api/account/email', ...stepUp, summary: 'Ask to change the e-mail address', body: emailChangeSchema,
      responses: { 200: { description: 'The same answer whether or not the address is taken', body: messageBody } },
    },
    { method: 'put', path: '/api/account/password', ...stepUp, summary: 'Change the password', body: updatePasswordSchema, responses: { 200: { description: 'Changed; every other session signed out', body: messageBody } } },
    { method: 'delete', path: '/api/account', ...stepUp, summary: 'Delete the account', body: deleteAccountSchema, responses: none('Deleted; cookies cleared') },
    { method: 'get', path: '/api/account/sessions', ...account, summary: 'The live sessions', responses: { 200: { description: 'The current one first', body: z.object({ data: z.array(sessionJson) }) } } },
    { method: 'get', path: '/api/account/activity', ...account, summary: 'The security activity', query: activityQuery, responses: { 200: { description: 'Newest first', body: paginatedBody(activityJson) } } },
    { method: 'delete', path: '/api/account/sessions', ...stepUp, summary: 'Sign out every other session', body: revokeOtherSessionsSchema, responses: none('Signed out') },
    { method: 'delete', path: '/api/account/sessions/:id', ...stepUp, summary: 'Sign out one session', responses: none('Signed out'), errors: [403, 404, 429] },
  ]
}
