import { UniqueConstraintError } from 'sequelize'
import { type AppContext, createAccount, findUserById, identityOf, normaliseEmail, serializeUser, type SignInUser, tidyName, User } from '../../../kernel/index.js'
import { OAuthAccount } from '../models/oauth-account.js'
import type { ProviderProfile } from './providers/types.js'

export type SignInOutcome = { user: SignInUser } | { error: 'account_exists' | 'email_unverified' }

export async function signInUser(userId: number): Promise<SignInUser | undefined> {
  const user = await findUserById(userId)
  if (!user) return undefined
  const json = serializeUser(user)
  return { passwordHash: user.password, json, identity: identityOf(json) }
}

/**
 * The sign-in rules: a known (provider, subject) is its user. Otherwise a new user,
 * with the address the provider vouches for, verified, and no password; but never an existing
 * account, however sure the provider is of the address: its owner links the provider from
 * settings after signing in, so a provider (or whoever controls an address there) cannot take
 * an account over.
 */
export async function accountFor(ctx: AppContext, provider: string, profile: ProviderProfile): Promise<SignInOutcome> {
  const linked = await OAuthAccount.findOne({ where: { provider, subject: profile.subject } })
  if (linked) {
    const user = await signInUser(linked.userId)
    if (user) return { user }
  }
  // A look-alike address (services/email-address.ts) vouches for nobody here, like an unconfirmed one.
  const email = profile.email === null ? null : normaliseEmail(profile.email)
  if (!email || !profile.emailVerified || email.length > 255) return { error: 'email_unverified' }
  if (await User.findOne({ where: { email }, attributes: ['id'] })) return { error: 'account_exists' }

  let created: User
  try {
    created = await createAccount(ctx, { name: nameOf(profile, email), email, passwordHash: null, role: 'user', verified: true })
  } catch (error) {
    // Registered meanwhile, by a form or a parallel provider sign-in.
    if (error instanceof UniqueConstraintError) return { error: 'account_exists' }
    throw error
  }
  try {
    await OAuthAccount.create({ userId: created.id, provider, subject: profile.subject, email })
  } catch (error) {
    // The same provider account signed up twice at once: the first one keeps it.
    await created.destroy()
    if (error instanceof UniqueConstraintError) return accountFor(ctx, provider, profile)
    throw error
  }
  return { user: (await signInUser(created.id))! }
}

function nameOf(profile: ProviderProfile, email: string): string {
  // The registration's rule: a display name is anyone's text, and reaches mail.
  const name = tidyName(profile.name ?? '')
  return name || tidyName(email.split('@')[0]!) || email
}
