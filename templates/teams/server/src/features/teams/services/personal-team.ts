import type { Transaction } from 'sequelize'
import type { User } from '../../../kernel/index.js'
import { Team } from '../models/team.js'
import { TeamMember } from '../models/team-member.js'

/** The personal team: "{name}'s Team", the user its only member and owner, and their current team. */
export async function createPersonalTeam(user: User, transaction: Transaction): Promise<void> {
  const team = await Team.create({ name: `${user.name}'s Team`, personalUserId: user.id }, { transaction })
  await TeamMember.create({ teamId: team.id, userId: user.id, role: 'owner' }, { transaction })
  await user.update({ currentTeamId: team.id }, { transaction })
}
