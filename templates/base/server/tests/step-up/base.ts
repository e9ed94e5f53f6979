import supertest from 'supertest'
import { WebhookEndpoint } from '../../src/kernel/models/index.js'
import { login, makeUser, uniqueEmail, withCookies } from '../helpers/test-app.js'
import type { GuardedRoute } from './types.js'

/** An endpoint to change, straight in the database (its secret is never read here). */
const anEndpoint = async () => (await WebhookEndpoint.create({ url: 'https://hooks.example.test/step-up', events: JSON.stringify(['*']), secret: 'sealed' })).id

/** Base's guarded routes: the account's own, and the admin's over other accounts. */
export const guardedRoutes: GuardedRoute[] = [
  { name: 'change the e-mail address', request: async () => ({ method: 'post', path: '/api/account/email', body: { email: uniqueEmail('new') } }), success: 200 },
  { name: 'change the password', request: async () => ({ method: 'put', path: '/api/account/password', body: { password: 'another long password 2' } }), success: 200 },
  { name: 'delete the account', request: async () => ({ method: 'delete', path: '/api/account' }), success: 204 },
  { name: 'sign out the other sessions', request: async () => ({ method: 'delete', path: '/api/account/sessions' }), success: 204 },
  {
    // One at a time, a stolen session would sign its owner out of every device all the same.
    name: 'sign out one other session',
    request: async ({ app, user, cookies }) => {
      await login(app, user.email)
      const listed = await supertest(app).get('/api/account/sessions').set(withCookies(cookies))
      const other = (listed.body.data as { id: string; current: boolean }[]).find((session) => !session.current)!
      return { method: 'delete', path: `/api/account/sessions/${other.id}` }
    },
    success: 204,
  },
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
  // A stolen admin session must not lock users out, nor become them.
  { name: 'suspend a user (admin)', role: 'admin', request: async () => ({ method: 'post', path: `/api/users/${(await makeUser()).id}/suspension`, body: { reason: 'Step-up test' } }), success: 200 },
  { name: "lift a user's suspension (admin)", role: 'admin', request: async () => ({ method: 'delete', path: `/api/users/${(await makeUser()).id}/suspension` }), success: 200 },
  { name: 'sign in as a user (admin)', role: 'admin', request: async () => ({ method: 'post', path: `/api/users/${(await makeUser()).id}/impersonation` }), success: 200 },
  // A stolen admin session must not silence the app's webhooks (the URL's change and a new endpoint were guarded already).
  {
    name: "change a webhook endpoint's events (admin)",
    role: 'admin',
    request: async () => ({ method: 'patch', path: `/api/webhooks/${await anEndpoint()}`, body: { events: ['sign_in'] } }),
    success: 200,
  },
  { name: 'remove a webhook endpoint (admin)', role: 'admin', request: async () => ({ method: 'delete', path: `/api/webhooks/${await anEndpoint()}` }), success: 204 },
]
