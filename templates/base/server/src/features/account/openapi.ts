import { messageBody, userBody, type RouteDoc } from '../../kernel/index.js'
import { confirmEmailSchema } from './controllers/confirm-email-change.js'
import { deleteAccountSchema } from './controllers/delete-account.js'
import { emailChangeSchema } from './controllers/request-email-change.js'
import { updatePasswordSchema } from './controllers/update-password.js'
import { updateProfileSchema } from './controllers/update-profile.js'

const tag = 'Account'
// Every account route counts writes and wrong passwords per user (429); step-up answers 403 `errors.confirm`.
const account = { tag, auth: true, errors: [429] } as const
const stepUp = { tag, auth: true, errors: [403, 429] } as const
const none = (description: string) => ({ 204: { description } })

/** `/api/account`: the signed-in user's own account. */
export function accountRouteDocs(): RouteDoc[] {
  return [
    {
      method: 'post', path: '/api/account/email/confirm', tag, auth: 'optional', summary: 'Confirm a new e-mail address with the mailed token', body: confirmEmailSchema,
      responses: { 200: { description: 'The address changed; every other session signed out', body: userBody } }, errors: [429],
    },
    { method: 'patch', path: '/api/account/profile', ...account, summary: 'Update the profile', body: updateProfileSchema, responses: { 200: { description: 'The user', body: userBody } } },
    {
      method: 'post', path: '/api/account/email', ...stepUp, summary: 'Ask to change the e-mail address', body: emailChangeSchema,
      responses: { 200: { description: 'The same answer whether or not the address is taken', body: messageBody } },
    },
    { method: 'put', path: '/api/account/password', ...stepUp, summary: 'Change the password', body: updatePasswordSchema, responses: { 200: { description: 'Changed; every other session signed out', body: messageBody } } },
    { method: 'delete', path: '/api/account', ...stepUp, summary: 'Delete the account', body: deleteAccountSchema, responses: none('Deleted; cookies cleared') },
  ]
}
