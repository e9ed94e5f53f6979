// Fixed by the specification; not meant to be tuned per project.
export const security = {
  bcryptCost: 10,
  emailVerificationExpirySeconds: 24 * 60 * 60,
  emailChangeExpirySeconds: 24 * 60 * 60,
  passwordResetExpirySeconds: 15 * 60,
  sessionTtlSeconds: 7200,
  /** A refresh token replaced less than this long ago still yields its current successor. */
  refreshGraceSeconds: 30,
  /** 32 random bytes = 256 bits for verification and reset tokens. */
  oneTimeTokenBytes: 32,
  minSecretLength: 32,
  maxBodyBytes: '100kb',
  sessionMaxKeys: 32,
  sessionMaxBytes: 4096,
  /** Objects and arrays inside objects and arrays, the PATCH body itself included. */
  sessionMaxDepth: 32,
} as const
