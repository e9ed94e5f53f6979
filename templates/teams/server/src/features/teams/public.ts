// What another slice may use of teams (a slice of yours scoping its data by team): the one
// file of this folder that other slices import.
export { requireTeamRole } from './middleware/require-team-role.js'
export { teamMembership } from './middleware/team-membership.js'
