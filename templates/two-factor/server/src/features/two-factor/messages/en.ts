// The two-factor layer's English messages, merged with base's (kernel/i18n/translate.ts).
export const en = {
  fields: {
    code: 'code',
    recovery_code: 'recovery code',
  },
  twoFactor: {
    codeDigits: 'The code must be 6 digits.',
    recoveryInvalid: 'The recovery code is invalid.',
    codeInvalid: 'The code is invalid.',
    codeUsed: 'This code was already used. Wait for the next one.',
    recoveryUsed: 'The recovery code is invalid or was already used.',
    expired: 'This sign-in attempt has expired. Please sign in again.',
    locked: 'Too many wrong codes for this account. Please try again in {{seconds}} seconds.',
    notEnabled: 'Two-factor authentication is not enabled.',
    setUpFirst: 'Start setting up two-factor authentication first.',
  },
  twoFactorNotices: {
    enabled: {
      subject: 'Two-factor authentication was turned on',
      summary: 'Two-factor authentication was turned on for your account, and your other sessions were signed out.',
    },
    disabled: {
      subject: 'Two-factor authentication was turned off',
      summary: 'Two-factor authentication was turned off for your account: a password alone now signs in. Your other sessions were signed out.',
    },
    recoveryCodesRegenerated: {
      subject: 'New recovery codes were made',
      summary: 'New two-factor recovery codes were made for your account; the old ones no longer work. Your other sessions were signed out.',
    },
    lockedOut: {
      subject: 'Sign-ins to your account are paused',
      summary: 'Too many wrong two-factor codes were entered for your account, so its second sign-in step is locked for 15 minutes. Someone may know your password: reset it, which also lifts the lock.',
    },
  },
}
