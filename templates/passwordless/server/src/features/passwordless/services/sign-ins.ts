import { Op } from 'sequelize'
import { hashToken, newOneTimeToken } from '../../../kernel/index.js'
import { EmailSignIn } from '../models/email-sign-in.js'
import { emailSignIn } from '../settings.js'
import { codeHash, codeMatches, newCode } from './codes.js'

const live = () => ({ expiresAt: { [Op.gt]: new Date() }, approvedAt: null })

/**
 * A sign-in mail's link token and code, which exist only in memory and in the mail. The newest
 * mail of an address is the only one that works: the older rows go after the new one is in, so
 * of two issued at once the later id survives.
 */
export async function issueSignIn(secret: string, values: { email: string; userId: number | null; bindingHash: string; remember: boolean }): Promise<{ token: string; code: string }> {
  const token = newOneTimeToken()
  const code = newCode()
  const row = await EmailSignIn.create({
    ...values,
    tokenHash: hashToken(token),
    codeHash: codeHash(secret, values.email, code),
    expiresAt: new Date(Date.now() + emailSignIn.lifeSeconds * 1000),
  })
  const sameAccount = values.userId === null ? [{ email: values.email }] : [{ email: values.email }, { userId: values.userId }]
  await EmailSignIn.destroy({ where: { id: { [Op.lt]: row.id }, [Op.or]: sameAccount } })
  return { token, code }
}

/** The live, unapproved sign-in a link's token names, or null (unknown, used, replaced, expired alike). */
export const openLink = (token: string): Promise<EmailSignIn | null> => EmailSignIn.findOne({ where: { tokenHash: hashToken(token), ...live() } })

/**
 * The live sign-in of `email` whose code this is, or null. Each try is counted before the code is
 * compared, so parallel guesses cannot pass the limit, and the try that spends the last attempt
 * voids the code (the link stays: it cannot be guessed). An address without a live mail costs
 * the same statements, so a wrong code tells nothing about the address.
 */
export async function checkCode(secret: string, email: string, code: string): Promise<EmailSignIn | null> {
  const row = await EmailSignIn.findOne({ where: { email, codeHash: { [Op.ne]: null }, ...live() } })
  const sequelize = EmailSignIn.sequelize!
  const [counted] = await EmailSignIn.update(
    { attempts: sequelize.literal('attempts + 1') },
    { where: { id: row?.id ?? -1, attempts: { [Op.lt]: emailSignIn.codeAttempts }, codeHash: { [Op.ne]: null } } },
  )
  const right = codeMatches(row?.codeHash ?? null, secret, email, code)
  if (row && counted === 1 && right) return row
  await EmailSignIn.update({ codeHash: null }, { where: { id: row?.id ?? -1, attempts: { [Op.gte]: emailSignIn.codeAttempts } } })
  return null
}

/** Single use: of two requests using one mail (its link, its code, or both), one deletes the row and wins. */
export async function useSignIn(row: EmailSignIn): Promise<boolean> {
  return (await EmailSignIn.destroy({ where: { id: row.id, approvedAt: null } })) === 1
}

/** The link was opened on another device and confirmed there: the asking browser's next poll signs it in. */
export async function approveSignIn(row: EmailSignIn): Promise<boolean> {
  const [count] = await EmailSignIn.update({ approvedAt: new Date() }, { where: { id: row.id, ...live() } })
  return count === 1
}

/** The approved sign-in this browser asked for, taken (deleted) by the one poll that wins it; null while there is none. */
export async function collectApproved(bindingHash: string): Promise<EmailSignIn | null> {
  const row = await EmailSignIn.findOne({ where: { bindingHash, approvedAt: { [Op.ne]: null }, expiresAt: { [Op.gt]: new Date() } } })
  if (!row) return null
  return (await EmailSignIn.destroy({ where: { id: row.id, approvedAt: { [Op.ne]: null } } })) === 1 ? row : null
}
