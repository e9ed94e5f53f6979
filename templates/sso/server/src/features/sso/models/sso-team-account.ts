import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/** What a team's SSO knows of an account (migration sso-0005): made by it, provisioned by its SCIM. */
export class SsoTeamAccount extends Model<InferAttributes<SsoTeamAccount>, InferCreationAttributes<SsoTeamAccount>> {
  declare id: CreationOptional<number>
  declare teamId: number
  declare userId: number
  /** The team's SSO or SCIM made the account: the team may suspend it when its IdP lets the person go. */
  declare created: CreationOptional<boolean>
  /** The team's SCIM provisioned it: a SCIM user of the team, active or not. */
  declare scim: CreationOptional<boolean>
  declare externalId: CreationOptional<string | null>
  declare active: CreationOptional<boolean>
  declare createdAt: CreationOptional<Date>
  declare updatedAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    SsoTeamAccount.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        teamId: { type: DataTypes.INTEGER, allowNull: false },
        userId: { type: DataTypes.INTEGER, allowNull: false },
        created: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        scim: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        externalId: { type: DataTypes.STRING(255), allowNull: true },
        active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'sso_team_accounts', modelName: 'SsoTeamAccount' },
    )
  }
}
