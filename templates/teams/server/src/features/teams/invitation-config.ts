import type { FeatureConfig } from '../../kernel/index.js'

const hour = 60 * 60_000

/** The layer's settings, as its object names them: read typed through `rateLimitsOf` with it. */
export const config = {
  rateLimits: {
    /** Invitations sent per team: each mails an address of the sender's choosing. */
    invitationsPerTeam: { limit: 20, windowMs: hour },
    /** Invitations sent per user across all their teams: a team of one's own is no new quota. */
    invitationsPerUser: { limit: 20, windowMs: hour },
    /** Teams created per user (each one a team to invite from). */
    teamsPerUser: { limit: 10, windowMs: hour },
  },
} as const satisfies FeatureConfig
