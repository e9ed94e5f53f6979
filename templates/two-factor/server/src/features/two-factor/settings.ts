// Two-factor settings: TOTP per RFC 6238 as every authenticator app reads it.
export const twoFactor = {
  algorithm: 'SHA1',
  digits: 6,
  periodSeconds: 30,
  /** Steps of clock drift accepted either way. */
  window: 1,
  /** 160 bits, the HMAC-SHA-1 key length RFC 4226 recommends. */
  secretBytes: 20,
  challengeSeconds: 300,
  /** The wrong code that reaches this count voids the challenge. */
  challengeAttempts: 5,
  recoveryCodeCount: 8,
  /** 16 base32 characters = 80 random bits: a plain SHA-256 of one is out of reach of offline guessing. */
  recoveryCodeLength: 16,
  /** Wrong second factors of one account, from anywhere, within the window that lock its second step. */
  lockoutFailures: 10,
  lockoutWindowSeconds: 15 * 60,
  lockoutSeconds: 15 * 60,
} as const
