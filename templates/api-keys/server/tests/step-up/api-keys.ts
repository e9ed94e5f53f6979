import type { GuardedRoute } from './types.js'

/** Making a key needs a confirmed session: a stolen session must not mint a credential that outlives it. */
export const guardedRoutes: GuardedRoute[] = [
  { name: 'make an API key', request: async () => ({ method: 'post', path: '/api/account/api-keys', body: { name: 'Deploy script', scopes: ['read'] } }), success: 201 },
  { name: 'make an admin-scoped API key (admin)', role: 'admin', request: async () => ({ method: 'post', path: '/api/account/api-keys', body: { name: 'Ops', scopes: ['read', 'admin'] } }), success: 201 },
]
