import type { CreationAttributes } from 'sequelize'
import type { AuthCache } from './auth-cache.js'
import type { User } from '../models/user.js'

/**
 * A change to a user that is not a credential (a name, a verified address): written, then every
 * instance's authentication cache told, so `/me` and `req.auth` never serve the old row. Changes
 * to credentials, roles and sessions go through the security core (security/credential-events.ts).
 */
export async function saveUserChanges(deps: { authCache: Pick<AuthCache, 'userChanged'> }, user: User, values: Partial<CreationAttributes<User>>): Promise<void> {
  await user.update(values)
  deps.authCache.userChanged(user.id)
}
