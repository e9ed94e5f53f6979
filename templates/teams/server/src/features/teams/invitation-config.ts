import type { Limit } from '../../config/limit.js'

declare module '../../config/rate-limits.js' {
  interface FeatureRateLimits {
    /** Invitations sent per team: each mails an address of the sender's choosing. */
    invitationsPerTeam: Limit
  }
}

export const invitationRateLimits = { invitationsPerTeam: { limit: 20, windowMs: 60 * 60_000 } }
