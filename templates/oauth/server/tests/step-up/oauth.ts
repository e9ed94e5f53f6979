import { randomUUID } from 'node:crypto'
import { OAuthAccount } from '../../src/features/oauth/models/oauth-account.js'
import { openIdEnv, startProvider } from '../helpers/oauth.js'
import type { GuardedRoute } from './types.js'

/** A provider to link: the test OpenID provider, as `oidc`. */
export const setup = async () => {
  const provider = await startProvider()
  return { env: openIdEnv(provider.issuer), close: () => provider.close() }
}

export const guardedRoutes: GuardedRoute[] = [
  { name: 'link a provider', request: async () => ({ method: 'post', path: '/api/account/connections/oidc' }), success: 200 },
  {
    name: 'unlink a provider',
    request: async ({ user }) => {
      await OAuthAccount.create({ userId: user.id, provider: 'oidc', subject: randomUUID(), email: user.email })
      return { method: 'delete', path: '/api/account/connections/oidc' }
    },
    success: 204,
  },
]
