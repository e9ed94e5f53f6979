import { features } from '../../src/features/index.js'
import { User } from '../../src/kernel/models/index.js'
import { waysIn } from '../../src/kernel/security/ways-in.js'

/**
 * How many ways to sign in the account has, as the security core counts them (its password and
 * every layer's methods). A layer may give every account one (its address): a test of the
 * last-way-in rule then finds more than the credentials it made.
 */
export const waysInOf = (userId: number): Promise<number> => User.sequelize!.transaction((transaction) => waysIn(features, userId, transaction))
