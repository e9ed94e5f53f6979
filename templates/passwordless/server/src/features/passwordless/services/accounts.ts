import type { Request } from 'express'
import { UniqueConstraintError } from 'sequelize'
import { type AppContext, createAccount, EmailVerificationToken, envOf, events, findUserByEmail, findUserById, recordCredentialEvent, saveUserChanges, tidyName, type User } from '../../../kernel/index.js'
import { config } from '../config.js'
import type { EmailSignIn } from '../models/email-sign-in.js'

const localPartOf = (email: string) => tidyName(email.slice(0, email.lastIndexOf('@'))) || email.slice(0, 255)

/**
 * The account a used sign-in mail lets in, or null: the account it was mailed to while the
 * address is still that account's; for an address that had none (a sign-up), a new account,
 * verified by this very use, or the one someone registered for the address meanwhile, whose
 * mailbox this use proves just the same.
 */
export async function accountFor(ctx: AppContext, row: EmailSignIn): Promise<User | null> {
  if (row.userId !== null) {
    const user = await findUserById(row.userId)
    return user && user.email === row.email ? user : null
  }
  // Turned off since the mail went out: the mail signs nobody up any more.
  if (!envOf(config, ctx.env).PASSWORDLESS_SIGN_UP) return null
  const existing = await findUserByEmail(row.email)
  if (existing) return existing
  try {
    await createAccount(ctx, { name: localPartOf(row.email), email: row.email, passwordHash: null, role: 'user', verified: true })
  } catch (error) {
    if (!(error instanceof UniqueConstraintError)) throw error
  }
  return findUserByEmail(row.email)
}

/**
 * Using a sign-in mail proves the mailbox, as a reset link does (kernel/services/email-verification.ts
 * `setPasswordByReset`): an unverified account becomes its owner's. Where verification is
 * required, its name and password came from a registration nobody confirmed, perhaps a
 * stranger's, so both go with the registrations, and every session it had ends.
 */
export async function proveMailbox(ctx: AppContext, req: Request, user: User): Promise<void> {
  if (user.emailVerifiedAt !== null) return
  if (!ctx.auth.requireEmailVerification) return saveUserChanges(ctx, user, { emailVerifiedAt: new Date() })
  await recordCredentialEvent(ctx, events.sessionsRevoked, user.id, {
    req,
    revoke: 'all',
    userChanged: true,
    meta: { reason: 'email_verified' },
    change: async (transaction) => {
      await EmailVerificationToken.destroy({ where: { userId: user.id }, transaction })
      await user.update({ emailVerifiedAt: new Date(), password: null, name: localPartOf(user.email) }, { transaction })
    },
  })
}
