import { createHmac, hkdfSync, randomInt, timingSafeEqual } from 'node:crypto'
import { emailSignIn } from '../settings.js'

const keys = new Map<string, Buffer>()

/**
 * A six-digit code has a million values: a plain hash of one is reversed at once by anyone who
 * reads the table. Keyed with a key derived from COOKIE_SECRET, which no row holds, a copy of the
 * database alone tells nothing.
 */
function keyOf(secret: string): Buffer {
  let key = keys.get(secret)
  if (!key) keys.set(secret, (key = Buffer.from(hkdfSync('sha256', secret, '', 'email-sign-in-code', 32))))
  return key
}

/** The code's digits, leading zeros kept. */
export const newCode = (): string => String(randomInt(0, 10 ** emailSignIn.codeDigits)).padStart(emailSignIn.codeDigits, '0')

/** The code's HMAC within `scope` (the address, or the confirming session), so one code's hash matches nowhere else. */
export const codeHash = (secret: string, scope: string, code: string): string =>
  createHmac('sha256', keyOf(secret)).update(`${scope}\0${code}`).digest('hex')

/** Compares in constant time; a missing hash (a spent code) matches nothing. */
export function codeMatches(stored: string | null, secret: string, scope: string, code: string): boolean {
  const given = Buffer.from(codeHash(secret, scope, code), 'hex')
  const expected = Buffer.from(stored ?? '0'.repeat(64), 'hex')
  return timingSafeEqual(given, expected) && stored !== null
}
