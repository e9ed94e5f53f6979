import type { CreationAttributes } from 'sequelize'
import type { AuthCache } from '../auth/auth-cache.js'
import type { UserLifecycle } from '../feature.js'
import type { User } from '../models/user.js'
import type { WebhookHub } from '../webhooks/hub.js'
import { createUser } from './users.js'

type Deps = { authCache: Pick<AuthCache, 'userChanged'> }
type CreateDeps = Deps & { features: UserLifecycle; webhooks: Pick<WebhookHub, 'emit'> }

/**
 * A new account from a registration: created, then the caches told (the users list's total counts
 * it at once). `within`: as `createUser`'s, writes that commit or fail with the account.
 */
export async function createAccount(deps: CreateDeps, values: Parameters<typeof createUser>[1], within?: Parameters<typeof createUser>[3]): Promise<User> {
  const user = await createUser(deps.features, values, deps.webhooks, within)
  deps.authCache.userChanged(user.id)
  return user
}

/**
 * A change to a user that is not a credential (a name, a verified address): written, then every
 * instance's authentication cache told, so `/me` and `req.auth` never serve the old row. Changes
 * to credentials, roles and sessions go through the security core (kernel/security/credential-events.ts).
 */
export async function saveUserChanges(deps: Deps, user: User, values: Partial<CreationAttributes<User>>): Promise<void> {
  await user.update(values)
  deps.authCache.userChanged(user.id)
}
