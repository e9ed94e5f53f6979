import { UniqueConstraintError } from 'sequelize'
import type { Env } from '../config/env.js'
import { security } from '../config/security.js'
import type { Mailer } from '../mail/mailer.js'
import { accountExistsMessage, linkWithToken, verifyEmailMessage } from '../mail/messages.js'
import { EmailVerificationToken, type User } from '../models/index.js'
import type { AuthCache } from './auth-cache.js'
import { issueOneTimeToken } from './one-time-tokens.js'
import { createUser, findUserByEmail } from './users.js'

/** What one registration asked for: its verification link carries it, and using the link sets it. */
export interface Registration {
  name: string
  passwordHash: string
}

interface Deps {
  env: Env
  mailer: Mailer
  authCache: Pick<AuthCache, 'userChanged'>
}

/**
 * The work behind a registration with verification on, done in the job so the request does the
 * same work for every address. A verified account gets a notice. Otherwise the account is
 * created if it is new, and left as it is if it waits for verification (an attacker who
 * registered the address first keeps nothing: the owner's link carries the owner's password).
 */
export async function registerAddress(deps: Deps, email: string, registration: Registration): Promise<void> {
  let user = await findUserByEmail(email)
  if (!user) {
    user = await createUser({ name: registration.name, email, passwordHash: registration.passwordHash, role: 'user', verified: false }).catch(
      (error: unknown) => {
        // A concurrent registration of the same address won the insert: continue with its account.
        if (error instanceof UniqueConstraintError) return findUserByEmail(email)
        throw error
      },
    )
    if (!user) return
    deps.authCache.userChanged(user.id)
  }
  if (user.emailVerifiedAt) {
    const { BASE_URL } = deps.env
    await deps.mailer.send(accountExistsMessage(user.email, user.name, `${BASE_URL}/login`, `${BASE_URL}/forgot-password`))
    return
  }
  // Older links stay valid: each is another registration's, and the first one used voids the rest.
  await mailVerificationLink(deps, user, registration, false)
}

/**
 * "Send the link again": a fresh link that replaces the older ones and carries the latest
 * registration (the one the asker most likely made), or nothing for an account that was not
 * registered through the form. Verified and unknown addresses get nothing.
 */
export async function resendVerificationLink(deps: Deps, email: string): Promise<void> {
  const user = await findUserByEmail(email)
  if (!user || user.emailVerifiedAt) return
  await mailVerificationLink(deps, user, await latestRegistration(user.id), true)
}

async function latestRegistration(userId: number): Promise<Registration | null> {
  const row = await EmailVerificationToken.findOne({ where: { userId }, order: [['id', 'DESC']] })
  return row?.name != null && row.password != null ? { name: row.name, passwordHash: row.password } : null
}

async function mailVerificationLink(deps: Deps, user: User, registration: Registration | null, voidOlder: boolean): Promise<void> {
  const token = await issueOneTimeToken(EmailVerificationToken, user.id, security.emailVerificationExpirySeconds, {
    voidOlder,
    fields: registration ? { name: registration.name, password: registration.passwordHash } : {},
  })
  const url = linkWithToken(deps.env.BASE_URL, 'verify-email', token, user.email)
  const greeting = registration?.name ?? user.name
  await deps.mailer.send(verifyEmailMessage(user.email, greeting, url, security.emailVerificationExpirySeconds / 3600))
}
