import { makeUser, uniqueEmail } from '../helpers/test-app.js'
import type { GuardedRoute } from './types.js'

/** Base's guarded routes: the account's own, and the admin's over other accounts. */
export const guardedRoutes: GuardedRoute[] = [
  { name: 'change the e-mail address', request: async () => ({ method: 'post', path: '/api/account/email', body: { email: uniqueEmail('new') } }), success: 200 },
  { name: 'change the password', request: async () => ({ method: 'put', path: '/api/account/password', body: { password: 'another long password 2' } }), success: 200 },
  { name: 'delete the account', request: async () => ({ method: 'delete', path: '/api/account' }), success: 204 },
  { name: 'sign out the other sessions', request: async () => ({ method: 'delete', path: '/api/account/sessions' }), success: 204 },
  {
    name: "change a user's role (admin)",
    role: 'admin',
    request: async () => ({ method: 'patch', path: `/api/users/${(await makeUser()).id}`, body: { role: 'admin' } }),
    success: 200,
  },
  { name: 'delete users (admin)', role: 'admin', request: async () => ({ method: 'delete', path: '/api/users', body: { ids: [(await makeUser()).id] } }), success: 200 },
  {
    name: 'sign a user out everywhere (admin)',
    role: 'admin',
    request: async () => ({ method: 'delete', path: `/api/users/${(await makeUser()).id}/sessions` }),
    success: 204,
  },
]
