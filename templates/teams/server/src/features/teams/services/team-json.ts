import type { TeamRole } from '../models/team-member.js'

/** A team as the API shows it to one member. */
export interface TeamJson {
  id: number
  name: string
  personal: boolean
  role: TeamRole
}

export const teamJson = (team: { id: number; name: string; personal: boolean }, role: TeamRole): TeamJson => ({
  id: team.id,
  name: team.name,
  personal: team.personal,
  role,
})
