/** Passkey settings. */
export const passkeys = {
  /** A ceremony's challenge lives this long, and is used once. */
  challengeSeconds: 300,
  /** The longest name a passkey may be given. */
  nameMaxLength: 100,
  /**
   * Credential ids are at most this long (base64url): a passkey's is 16 to 64 bytes; the column
   * and its unique index stay within every database's index limits.
   */
  credentialIdMaxLength: 255,
  /** Where browsers and password managers send people to add and manage passkeys. */
  settingsPath: '/settings/passkeys',
}
