import type { CredentialEventKind } from '../../kernel/index.js'

/**
 * The teams' events, recorded through the security core (the app's admin sees them in the user's
 * activity) with `meta.teamId` first (services/team-activity.ts finds a team's by it). None ends
 * a session: a removed member loses the team at the next request, as the middleware reads the
 * membership on each.
 */
export const teamEvents = {
  /** The creator's. */
  created: { type: 'team_created' },
  /** The deleting owner's. */
  deleted: { type: 'team_deleted' },
  /** The new member's. */
  memberAdded: { type: 'member_added' },
  /** The removed (or leaving) member's. */
  memberRemoved: { type: 'member_removed' },
  /** The member whose role changed. */
  roleChanged: { type: 'member_role_changed' },
  /** The old owner's, naming the new one. */
  ownershipTransferred: { type: 'ownership_transferred' },
} as const satisfies Record<string, CredentialEventKind>

/** Every event a team's activity lists, the invitations' included (they raise theirs with `meta.teamId` too). */
export const TEAM_EVENT_TYPES = [...Object.values(teamEvents).map((kind) => kind.type), 'invitation_sent', 'invitation_accepted'] as const

/** The teams' events as webhooks send them: under `team.`, so an endpoint can take them all with `team.*`. */
export const teamWebhookEvents: Record<(typeof TEAM_EVENT_TYPES)[number], string> = {
  team_created: 'team.created',
  team_deleted: 'team.deleted',
  member_added: 'team.member_added',
  member_removed: 'team.member_removed',
  member_role_changed: 'team.member_role_changed',
  ownership_transferred: 'team.ownership_transferred',
  invitation_sent: 'team.invitation_sent',
  invitation_accepted: 'team.invitation_accepted',
}

/** The meta of a team's event: its team first, then what else it records. */
export const teamMeta = (teamId: number, rest: Record<string, unknown> = {}) => ({ teamId, ...rest })
