// What other slices may use of teams (a slice of yours scoping its data by team, team API keys):
// the membership check and role guard that every team-scoped route stands on, and the roles they
// rank. The one file of this folder that other slices import.
export { requireTeamRole } from './middleware/require-team-role.js'
export { teamMembership, type RequestTeam } from './middleware/team-membership.js'
export { RANK, TEAM_ROLES, TeamMember, type TeamRole } from './models/team-member.js'
// A team's members changed on the team's behalf by another slice (SCIM's provisioning, SSO's
// sign-in): the same actions the teams' own routes use, under the team's lock, with its rules
// (the last owner stays), its effects (invitations voided, current teams moved back) and its
// events and webhooks, which a direct write to team_members would skip.
export { addTeamMember, removeTeamMember, setTeamMemberRole, type SliceMemberChange } from './services/memberships.js'
