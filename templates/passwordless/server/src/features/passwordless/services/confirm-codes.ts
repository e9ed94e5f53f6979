import { Op } from 'sequelize'
import { EmailConfirmCode } from '../models/email-confirm-code.js'
import { emailSignIn } from '../settings.js'
import { codeHash, codeMatches, newCode } from './codes.js'

const scopeOf = (userId: number, sessionId: string) => `confirm\0${userId}\0${sessionId}`

/** A fresh code for one session of the user; the session's older codes stop working. */
export async function issueConfirmCode(secret: string, userId: number, sessionId: string): Promise<string> {
  const code = newCode()
  const row = await EmailConfirmCode.create({
    userId,
    sessionId,
    codeHash: codeHash(secret, scopeOf(userId, sessionId), code),
    expiresAt: new Date(Date.now() + emailSignIn.confirmLifeSeconds * 1000),
  })
  await EmailConfirmCode.destroy({ where: { userId, sessionId, id: { [Op.lt]: row.id } } })
  return code
}

/**
 * Uses the session's code: true once, for the right one. Each try counts before the compare, and
 * the code dies with its last attempt.
 */
export async function useConfirmCode(secret: string, userId: number, sessionId: string, code: string): Promise<boolean> {
  const row = await EmailConfirmCode.findOne({ where: { userId, sessionId, expiresAt: { [Op.gt]: new Date() } }, order: [['id', 'DESC']] })
  if (!row) return false
  const sequelize = EmailConfirmCode.sequelize!
  const [counted] = await EmailConfirmCode.update({ attempts: sequelize.literal('attempts + 1') }, { where: { id: row.id, attempts: { [Op.lt]: emailSignIn.codeAttempts } } })
  if (counted === 1 && codeMatches(row.codeHash, secret, scopeOf(userId, sessionId), code)) {
    return (await EmailConfirmCode.destroy({ where: { id: row.id } })) === 1
  }
  await EmailConfirmCode.destroy({ where: { id: row.id, attempts: { [Op.gte]: emailSignIn.codeAttempts } } })
  return false
}
