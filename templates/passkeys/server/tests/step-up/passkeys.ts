import { SoftwareAuthenticator } from '../helpers/authenticator.js'
import { addPasskey, ORIGIN } from '../helpers/passkeys.js'
import type { GuardedRoute } from './types.js'

export const guardedRoutes: GuardedRoute[] = [
  { name: 'add a passkey (its options)', request: async () => ({ method: 'post', path: '/api/account/passkeys/options' }), success: 200 },
  {
    name: 'remove a passkey',
    request: async ({ app, cookies }) => {
      const added = await addPasskey(app, cookies, new SoftwareAuthenticator(ORIGIN))
      return { method: 'delete', path: `/api/account/passkeys/${added.body.passkey.id}` }
    },
    success: 204,
  },
]
