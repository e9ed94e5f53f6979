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
  /**
   * An account without a password (one a feature layer made, a provider's) confirms a sensitive
   * action by having signed in this recently in the session asking, as the contract asks of
   * adding a passkey; GitHub's sudo mode and Laravel's password timeout work alike.
   */
  recentSignInSeconds: 10 * 60,
} as const
