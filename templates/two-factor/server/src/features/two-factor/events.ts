import type { CredentialEventKind } from '../../kernel/index.js'

/** The two-factor layer's credential events, recorded through the security core like every other. */
export const twoFactorEvents = {
  enabled: {
    type: 'two_factor_enabled',
    notice: { subject: 'twoFactorNotices.enabled.subject', summary: 'twoFactorNotices.enabled.summary' },
  },
  disabled: {
    type: 'two_factor_disabled',
    notice: { subject: 'twoFactorNotices.disabled.subject', summary: 'twoFactorNotices.disabled.summary' },
  },
  recoveryCodesRegenerated: {
    type: 'recovery_codes_regenerated',
    notice: { subject: 'twoFactorNotices.recoveryCodesRegenerated.subject', summary: 'twoFactorNotices.recoveryCodesRegenerated.summary' },
  },
  lockedOut: {
    type: 'locked_out',
    notice: { subject: 'twoFactorNotices.lockedOut.subject', summary: 'twoFactorNotices.lockedOut.summary' },
  },
} as const satisfies Record<string, CredentialEventKind>
