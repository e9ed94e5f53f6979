import { createHash } from 'node:crypto'
import type { Env } from '../config/env.js'
import { fieldError } from '../http/errors.js'
import type { Logger } from '../logger.js'
import { hashPassword } from './passwords.js'

/** The check's budget: past it the password is accepted (availability first) and a warning logged. */
const BUDGET_MS = 2000

/**
 * Whether a password appears in Have I Been Pwned's corpus, by k-anonymity: only the first 5 hex
 * characters of its SHA-1 leave the server, with `Add-Padding: true` so the answer's size says
 * nothing either. The matching suffixes come back with their counts; padding lines count 0.
 * Returns null when the service could not answer within the budget.
 */
export async function appearsInBreaches(env: Pick<Env, 'PWNED_PASSWORDS_URL'>, password: string): Promise<boolean | null> {
  const hash = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase()
  const prefix = hash.slice(0, 5)
  const suffix = hash.slice(5)
  try {
    const res = await fetch(`${env.PWNED_PASSWORDS_URL}/range/${prefix}`, { headers: { 'Add-Padding': 'true' }, signal: AbortSignal.timeout(BUDGET_MS) })
    if (!res.ok) return null
    for (const line of (await res.text()).split('\n')) {
      const [candidate, count] = line.trim().split(':')
      if (candidate === suffix && Number(count) > 0) return true
    }
    return false
  } catch {
    return null
  }
}

type CheckContext = { env: Pick<Env, 'PWNED_PASSWORDS' | 'PWNED_PASSWORDS_URL'>; logger: Logger }

/**
 * A new password, checked and hashed: what every route that sets one calls after validating it.
 * A password known from a breach is the first an attacker tries (OWASP ASVS 5, the Copenhagen
 * Book), so it is refused (422 on `field`). The check runs while bcrypt hashes, so it adds
 * nothing to the answer's time unless the service is slower than the hash. Off with
 * PWNED_PASSWORDS=off; when the service is out of reach the password is accepted with a warning.
 */
export async function hashNewPassword(ctx: CheckContext, password: string, field = 'password'): Promise<string> {
  const [hash] = await Promise.all([hashPassword(password), refuseBreachedPassword(ctx, password, field)])
  return hash
}

async function refuseBreachedPassword(ctx: CheckContext, password: string, field: string): Promise<void> {
  if (!ctx.env.PWNED_PASSWORDS) return
  const breached = await appearsInBreaches(ctx.env, password)
  if (breached === null) ctx.logger.warn({ service: ctx.env.PWNED_PASSWORDS_URL }, 'The breached-password check could not be made; the password was accepted.')
  if (breached) throw fieldError(field, 'auth.breached')
}
