// What other slices may use of teams (a slice of yours scoping its data by team, team API keys):
// the membership check and role guard that every team-scoped route stands on, and the roles they
// rank. The one file of this folder that other slices import.
export { requireTeamRole } from './middleware/require-team-role.js'
export { teamMembership, type RequestTeam } from './middleware/team-membership.js'
export { RANK, TEAM_ROLES, TeamMember, type TeamRole } from './models/team-member.js'
