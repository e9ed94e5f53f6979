import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/** The roles an invitation can grant: ownership only ever moves by a transfer. */
export const INVITATION_ROLES = ['admin', 'member'] as const
export type InvitationRole = (typeof INVITATION_ROLES)[number]

/**
 * A pending invitation to a team: the address it was mailed to (normalised as every address
 * is), the role it grants, who sent it, and only the SHA-256 of its token. The request makes the
 * row with an `unsent:` placeholder that no token hashes to, and the mail job sets the hash
 * (services/invitations.ts). Accepted, revoked, replaced or voided, the row is deleted.
 */
export class TeamInvitation extends Model<InferAttributes<TeamInvitation>, InferCreationAttributes<TeamInvitation>> {
  declare id: CreationOptional<number>
  declare teamId: number
  declare email: string
  declare role: InvitationRole
  declare tokenHash: string
  declare invitedBy: number
  declare expiresAt: Date
  declare createdAt: CreationOptional<Date>
  declare updatedAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    TeamInvitation.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        teamId: { type: DataTypes.INTEGER, allowNull: false },
        email: { type: DataTypes.STRING(255), allowNull: false },
        role: { type: DataTypes.STRING(16), allowNull: false },
        tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
        invitedBy: { type: DataTypes.INTEGER, allowNull: false },
        expiresAt: { type: DataTypes.DATE, allowNull: false },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'team_invitations', modelName: 'TeamInvitation' },
    )
  }
}
