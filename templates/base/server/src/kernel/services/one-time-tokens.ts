import { createHash, randomBytes } from 'node:crypto'
import { Op, type CreationAttributes, type ModelStatic, type WhereOptions } from 'sequelize'
import { security } from '../config/security.js'
import type { OneTimeToken } from '../models/index.js'

export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex')

/**
 * 256 random bits, base64url. A token never starts with a hex digit, so a link read from a
 * stored .eml by something that undoes quoted-printable (`token=AB…` would turn into one byte)
 * comes out unchanged. That costs less than one bit.
 */
export function newOneTimeToken(): string {
  for (;;) {
    const token = randomBytes(security.oneTimeTokenBytes).toString('base64url')
    if (!/^[0-9a-f]/i.test(token)) return token
  }
}

/**
 * Issues a fresh token for a user; by default the older ones are deleted, so only the latest
 * link works. Returns the plaintext, which exists only in memory and in the e-mail.
 */
export async function issueOneTimeToken<T extends OneTimeToken>(
  model: ModelStatic<T>,
  userId: number,
  lifeSeconds: number,
  options: { voidOlder?: boolean; fields?: Partial<CreationAttributes<T>> } = {},
): Promise<string> {
  const token = newOneTimeToken()
  if (options.voidOlder ?? true) await model.destroy({ where: { userId } as WhereOptions<T> })
  await model.create({ ...options.fields, userId, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + lifeSeconds * 1000) } as CreationAttributes<T>)
  return token
}

/**
 * Consumes a token for the given user and returns its record, or null. The delete is the single
 * conditional statement that decides: of two concurrent requests with the same token only one
 * deletes the row. Using a token voids the user's other tokens of the kind. Invalid, expired,
 * used and someone else's tokens all answer null alike; so does a row that does not also match
 * `where` (a link mailed to an address that is no longer the account's).
 */
export async function consumeOneTimeToken<T extends OneTimeToken>(
  model: ModelStatic<T>,
  userId: number | undefined,
  token: string,
  where: Record<string, unknown> = {},
): Promise<T | null> {
  // An unknown e-mail still runs the query, so it costs the same as a wrong token.
  const row = (await model.findOne({
    where: { ...where, userId: userId ?? -1, tokenHash: hashToken(token), expiresAt: { [Op.gt]: new Date() } } as WhereOptions<T>,
  })) as T | null
  if (!row || userId === undefined) return null
  if ((await model.destroy({ where: { id: row.id } as WhereOptions<T> })) !== 1) return null
  await model.destroy({ where: { userId } as WhereOptions<T> })
  return row
}
