import { DataTypes } from 'sequelize'
import { defineFeature } from '../../kernel/index.js'
import { teamEvents, teamWebhookEvents } from './events.js'
import { config } from './invitation-config.js'
import { invitationEvents } from './invitation-events.js'
import { invitationToken } from './invitation-credential-token.js'
import { invitationJobs } from './invitation-jobs.js'
import { invitationAcceptRoutes } from './invitation-routes.js'
import * as createTeams from './migrations/0001-create-teams.js'
import * as createInvitations from './migrations/0002-create-team-invitations.js'
import { TeamInvitation } from './models/invitation.js'
import { Team } from './models/team.js'
import { TeamMember } from './models/team-member.js'
import { teamRoutes } from './routes.js'
import { teamsOnUserDeletion } from './services/account-deletion.js'
import { createPersonalTeam } from './services/personal-team.js'
import { de } from './messages/de.js'
import { en } from './messages/en.js'

declare module '../../kernel/models/user.js' {
  interface User {
    /** The team the user works in; read through services/current-team.ts, which falls back to the personal team. */
    currentTeamId: number | null
  }
}

/** Teams: a personal team per user, shared teams with roles, invitations by mail. */
export const feature = defineFeature({
  name: 'teams',
  messages: { en, de },
  config,
  models: {
    models: [Team, TeamMember, TeamInvitation],
    userAttributes: { currentTeamId: { type: DataTypes.INTEGER, allowNull: true } },
  },
  // Released migrations keep their names: the database records them by name.
  migrations: [
    { name: 'teams-0001-create-teams', ...createTeams },
    { name: 'teams-0002-create-team-invitations', ...createInvitations },
  ],
  openapi: async () => (await import('./openapi.js')).routeDocs,
  routes: {
    api: (router, ctx) => {
      router.use('/teams', teamRoutes(ctx))
      router.use('/invitations', invitationAcceptRoutes(ctx))
    },
  },
  userCreated: createPersonalTeam,
  userDeletion: teamsOnUserDeletion,
  credentialTokens: [invitationToken],
  jobs: invitationJobs,
  events: { ...teamEvents, ...invitationEvents },
  webhookEvents: teamWebhookEvents,
})
