import { Op, type Transaction } from 'sequelize'
import type { CredentialToken } from '../kernel/feature.js'
import { EmailChangeToken, EmailVerificationToken, PasswordResetToken, RefreshToken, Session } from '../models/index.js'

/**
 * Every kind of credential token of the app: base's here, and what each feature layer registers
 * in its manifest (`credentialTokens`). One registry, so a revoking event voids every pending kind
 * at once and no flow can forget one: an e-mail change link, then a choose-a-password link,
 * surviving a password change was how accounts were taken.
 */
export const baseCredentialTokens: readonly CredentialToken[] = [
  // Its rows are kept (voidedAt) after the link dies: a pending registration must go on answering
  // login's 403 rule, or the owner's sign-out would tell a stranger that the address has an account.
  { model: EmailVerificationToken, grants: 'credential', pending: true, voidColumn: 'voidedAt', mailedTo: 'email' },
  { model: PasswordResetToken, grants: 'credential', pending: true, mailedTo: 'email' },
  { model: EmailChangeToken, grants: 'address', pending: true },
  // Sign-ins: ended by the core's revocation itself (services/sessions.ts revokeSessionRows).
  { model: Session, grants: 'sign-in', pending: false },
  { model: RefreshToken, grants: 'sign-in', pending: false },
]

/** What the registry reads of the feature layers. */
export type TokenFeatures = readonly { credentialTokens?: readonly CredentialToken[] }[]

export const credentialTokens = (features: TokenFeatures): CredentialToken[] => [
  ...baseCredentialTokens,
  ...features.flatMap((feature) => feature.credentialTokens ?? []),
]

/**
 * Voids every pending credential token of the users, in the revoking event's transaction; `wide`
 * says the event ends every session (or every one but the requester's), which those kinds that
 * only such events void (`voidedBy: 'wide'`) wait for.
 */
export async function voidPendingCredentials(features: TokenFeatures, userIds: number[], transaction?: Transaction, wide = true): Promise<void> {
  const where = { userId: { [Op.in]: userIds } }
  for (const token of credentialTokens(features)) {
    if (!token.pending || (token.voidedBy === 'wide' && !wide)) continue
    if (token.voidColumn) await token.model.update({ [token.voidColumn]: new Date() }, { where: { ...where, [token.voidColumn]: null }, transaction })
    else await token.model.destroy({ where, transaction })
  }
}
