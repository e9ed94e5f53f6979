import { Op, QueryTypes, type Transaction } from 'sequelize'
import { forDialect, User, type UserDeletion } from '../../../kernel/index.js'
import { Team } from '../models/team.js'
import { TeamMember } from '../models/team-member.js'

interface Standing {
  teamId: number
  /** Owners and members left once the users are gone. */
  owners: number
  members: number
}

/**
 * The shared teams some of `userIds` own, locked in id order after the users' rows (users before
 * teams, as every team change takes them: services/team-lock.ts), with what each keeps without
 * those users.
 */
async function ownedTeams(userIds: number[], transaction: Transaction): Promise<Standing[]> {
  const sequelize = User.sequelize!
  const dialect = sequelize.getDialect()
  await User.findAll({ attributes: ['id'], where: { id: userIds }, order: [['id', 'ASC']], lock: transaction.LOCK.UPDATE, transaction })
  const owned = await sequelize.query<{ teamId: number }>(
    forDialect(`SELECT DISTINCT m."teamId" FROM team_members m JOIN teams t ON t.id = m."teamId"
      WHERE m."userId" IN (:users) AND m.role = 'owner' AND t."personalUserId" IS NULL ORDER BY m."teamId"`, dialect),
    { replacements: { users: userIds }, type: QueryTypes.SELECT, transaction },
  )
  const teams = owned.map((row) => Number(row.teamId))
  if (teams.length === 0) return []
  if (dialect !== 'sqlite') await sequelize.query(`SELECT id FROM teams WHERE id IN (:teams) ORDER BY id FOR UPDATE`, { replacements: { teams }, type: QueryTypes.SELECT, transaction })
  // Under the teams' locks no change to their members is under way, but on MySQL a plain read
  // sees the transaction's snapshot, taken before an owner who left while this waited had gone:
  // the count would keep them, and the deletion strand the team. A locking read sees the commit.
  // (PostgreSQL reads each statement's latest commits; SQLite's transaction holds the database.)
  const latest = dialect === 'mysql' ? ' LOCK IN SHARE MODE' : ''
  const left = await sequelize.query<{ teamId: number; owners: number | string; members: number | string }>(
    forDialect(`SELECT "teamId", SUM(CASE WHEN role = 'owner' THEN 1 ELSE 0 END) AS owners, COUNT(*) AS members
      FROM team_members WHERE "teamId" IN (:teams) AND "userId" NOT IN (:users) GROUP BY "teamId"${latest}`, dialect),
    { replacements: { teams, users: userIds }, type: QueryTypes.SELECT, transaction },
  )
  const byTeam = new Map(left.map((row) => [Number(row.teamId), row]))
  return teams.map((teamId) => ({ teamId, owners: Number(byTeam.get(teamId)?.owners ?? 0), members: Number(byTeam.get(teamId)?.members ?? 0) }))
}

/**
 * Jetstream's rule: an account that is the last owner of a team others still belong to is not
 * deleted until it hands the team over (or deletes it). A shared team with nobody else in it
 * goes with its owner, as does the personal team; memberships go with the account.
 */
export const teamsOnUserDeletion: UserDeletion = {
  async refusal(userIds, transaction) {
    const stranded = (await ownedTeams(userIds, transaction)).some((team) => team.members > 0 && team.owners === 0)
    return stranded ? 'teams.onlyOwner' : undefined
  },
  async cleanup(userIds, transaction) {
    const emptied = (await ownedTeams(userIds, transaction)).filter((team) => team.members === 0).map((team) => team.teamId)
    await TeamMember.destroy({ where: { userId: userIds }, transaction })
    await Team.destroy({ where: { [Op.or]: [{ id: emptied }, { personalUserId: userIds }] }, transaction })
  },
}
