import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

export const TEAM_ROLES = ['owner', 'admin', 'member'] as const
export type TeamRole = (typeof TEAM_ROLES)[number]

/** What a role may do, as a rank: a route asks for at least one (middleware/require-team-role.ts). */
export const RANK: Record<TeamRole, number> = { member: 1, admin: 2, owner: 3 }

/** A user's membership of a team, with its role; `createdAt` is when they joined. */
export class TeamMember extends Model<InferAttributes<TeamMember>, InferCreationAttributes<TeamMember>> {
  declare id: CreationOptional<number>
  declare teamId: number
  declare userId: number
  declare role: TeamRole
  declare createdAt: CreationOptional<Date>
  declare updatedAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    TeamMember.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        teamId: { type: DataTypes.INTEGER, allowNull: false },
        userId: { type: DataTypes.INTEGER, allowNull: false },
        role: { type: DataTypes.STRING(16), allowNull: false },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'team_members', modelName: 'TeamMember' },
    )
  }
}
