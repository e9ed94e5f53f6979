// What other slices may use of the teams layer: the membership check and role guard that every
// team-scoped route stands on, and the roles they rank.
export { requireTeamRole } from './middleware/require-team-role.js'
export { teamMembership, type RequestTeam } from './middleware/team-membership.js'
export { RANK, TEAM_ROLES, TeamMember, type TeamRole } from './models/team-member.js'
