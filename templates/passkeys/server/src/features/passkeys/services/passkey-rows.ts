import type { Transaction } from 'sequelize'
import { idField, User } from '../../../kernel/index.js'
import { Passkey } from '../models/passkey.js'

/** Passkeys are looked up by id within their owner's: another user's id is as unknown as a made-up one. */
export async function findOwnPasskey(userId: number, id: string): Promise<Passkey | null> {
  const parsed = idField.safeParse(id)
  return parsed.success ? Passkey.findOne({ where: { id: parsed.data, userId } }) : null
}

/**
 * The user's `passkeyCount` (what /me reports) counted again, in the transaction that added or
 * removed one: the security core has locked the user's row, so two changes take turns.
 */
export async function recountPasskeys(userId: number, transaction: Transaction): Promise<void> {
  const passkeyCount = await Passkey.count({ where: { userId }, transaction })
  await User.update({ passkeyCount }, { where: { id: userId }, transaction, silent: true })
}
