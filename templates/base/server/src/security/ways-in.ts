import type { Transaction } from 'sequelize'
import type { SignInMethod } from '../kernel/feature.js'
import { User } from '../models/index.js'

/** What the rule reads of the feature layers: the ways to sign in each brings. */
export type SignInFeatures = readonly { signInMethods?: readonly SignInMethod[] }[]

/**
 * How many ways to sign in the user has: a password (base's), and each layer's sign-in
 * methods, counted in `transaction`.
 */
export async function waysIn(features: SignInFeatures, userId: number, transaction: Transaction): Promise<number> {
  const user = await User.findByPk(userId, { attributes: ['password'], transaction })
  let count = user?.password ? 1 : 0
  for (const feature of features) for (const method of feature.signInMethods ?? []) count += await method.count(userId, transaction)
  return count
}

/**
 * The last-way-in rule, for a change that removes a way to sign in: call it in the change's
 * transaction, after the removal, where recordCredentialEvent holds the user's row lock, so two
 * removals at once take turns and the second sees the first (checked outside, both passed and
 * left an account nobody could enter). Throws `refusal` (rolling the removal back) when no way is left.
 */
export async function keepWayIn(features: SignInFeatures, userId: number, transaction: Transaction, refusal: () => Error): Promise<void> {
  if ((await waysIn(features, userId, transaction)) === 0) throw refusal()
}
