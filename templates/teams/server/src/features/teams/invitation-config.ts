import type { Limit } from '../../kernel/index.js'

declare module '../../config/rate-limits.js' {
  interface FeatureRateLimits {
    /** Invitations sent per team: each mails an address of the sender's choosing. */
    invitationsPerTeam: Limit
    /** Invitations sent per user across all their teams: a team of one's own is no new quota. */
    invitationsPerUser: Limit
    /** Teams created per user (each one a team to invite from). */
    teamsPerUser: Limit
  }
}

const hour = 60 * 60_000

export const teamRateLimits = {
  invitationsPerTeam: { limit: 20, windowMs: hour },
  invitationsPerUser: { limit: 20, windowMs: hour },
  teamsPerUser: { limit: 10, windowMs: hour },
}
