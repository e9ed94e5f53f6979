// The passkeys layer's English messages, merged with base's (kernel/i18n/translate.ts).
export const en = {
  passkeys: {
    signInFailed: 'This passkey could not sign you in. Please try again.',
    noPasskey: 'Your account has no passkey: confirm another way.',
    notConfirmed: 'This passkey could not confirm it is you. Please try again.',
    lastWayIn: 'This passkey is the only way to sign in to your account: set a password (with "Forgot password?") or add another passkey first.',
    notVerified: 'The passkey could not be verified. Please try again.',
    requestExpired: 'This passkey request expired or was already used. Please start again.',
    alreadyRegistered: 'This passkey is already registered.',
    responseMalformed: 'The passkey response is missing or malformed.',
  },
  passkeyNotices: {
    added: {
      subject: 'A passkey was added to your account',
      summary: 'A passkey was added to your account: it can now sign in without your password.',
    },
  },
}
