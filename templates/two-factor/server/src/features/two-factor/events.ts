import type { CredentialEventKind } from '../../security/events.js'

declare module '../../security/events.js' {
  interface CredentialEventTypes {
    two_factor_enabled: true
    two_factor_disabled: true
    recovery_codes_regenerated: true
    locked_out: true
  }
}

/** The two-factor layer's credential events, recorded through the security core like every other. */
export const twoFactorEvents = {
  enabled: {
    type: 'two_factor_enabled',
    notice: { subject: 'Two-factor authentication was turned on', summary: 'Two-factor authentication was turned on for your account, and your other sessions were signed out.' },
  },
  disabled: {
    type: 'two_factor_disabled',
    notice: { subject: 'Two-factor authentication was turned off', summary: 'Two-factor authentication was turned off for your account: a password alone now signs in. Your other sessions were signed out.' },
  },
  recoveryCodesRegenerated: {
    type: 'recovery_codes_regenerated',
    notice: { subject: 'New recovery codes were made', summary: 'New two-factor recovery codes were made for your account; the old ones no longer work. Your other sessions were signed out.' },
  },
  lockedOut: {
    type: 'locked_out',
    notice: {
      subject: 'Sign-ins to your account are paused',
      summary: 'Too many wrong two-factor codes were entered for your account, so its second sign-in step is locked for 15 minutes. Someone may know your password: reset it, which also lifts the lock.',
    },
  },
} as const satisfies Record<string, CredentialEventKind>
