import { createHash, randomBytes } from 'node:crypto'
import { Op, type ModelStatic } from 'sequelize'
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
 * Issues a fresh token for a user and deletes the older ones, so only the latest link works.
 * Returns the plaintext, which exists only in memory and in the e-mail.
 */
export async function issueOneTimeToken(model: ModelStatic<OneTimeToken>, userId: number, lifeSeconds: number): Promise<string> {
  const token = newOneTimeToken()
  await model.destroy({ where: { userId } })
  await model.create({ userId, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + lifeSeconds * 1000) })
  return token
}

/**
 * Consumes a token for the given user. The delete is the single conditional statement that
 * decides: of two concurrent requests with the same token only one deletes the row.
 * Invalid, expired, used and someone else's tokens all answer false alike.
 */
export async function consumeOneTimeToken(model: ModelStatic<OneTimeToken>, userId: number | undefined, token: string): Promise<boolean> {
  // An unknown e-mail still runs the query, so it costs the same as a wrong token.
  const deleted = await model.destroy({
    where: { userId: userId ?? -1, tokenHash: hashToken(token), expiresAt: { [Op.gt]: new Date() } },
  })
  if (deleted !== 1 || userId === undefined) return false
  await model.destroy({ where: { userId } })
  return true
}
