import type { Transaction } from 'sequelize'
import { SsoTeamAccount } from '../models/sso-team-account.js'

/** The team's row for an account, made if there is none (the unique (team, user) index keeps it one). */
export async function teamAccountRow(teamId: number, userId: number, transaction?: Transaction): Promise<SsoTeamAccount> {
  const [row] = await SsoTeamAccount.findOrCreate({ where: { teamId, userId }, defaults: { teamId, userId }, transaction })
  return row
}

/** Records that the team's SSO or SCIM made the account: only then may the team suspend it. */
export async function markMadeByTeam(teamId: number, userId: number, transaction?: Transaction): Promise<void> {
  const row = await teamAccountRow(teamId, userId, transaction)
  if (!row.created) await row.update({ created: true }, { transaction })
}
