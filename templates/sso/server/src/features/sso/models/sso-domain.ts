import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/** A domain a team claims; `verifiedDomain` is set (to `domain`) once its TXT record proved the claim. */
export class SsoDomain extends Model<InferAttributes<SsoDomain>, InferCreationAttributes<SsoDomain>> {
  declare id: CreationOptional<number>
  declare teamId: number
  declare domain: string
  /** Published by the team in DNS: proof of control, not a secret. */
  declare txtValue: string
  declare verifiedDomain: CreationOptional<string | null>
  declare verifiedAt: CreationOptional<Date | null>
  declare createdAt: CreationOptional<Date>
  declare updatedAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    SsoDomain.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        teamId: { type: DataTypes.INTEGER, allowNull: false },
        domain: { type: DataTypes.STRING(253), allowNull: false },
        txtValue: { type: DataTypes.STRING(64), allowNull: false },
        verifiedDomain: { type: DataTypes.STRING(253), allowNull: true },
        verifiedAt: { type: DataTypes.DATE, allowNull: true },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'sso_domains', modelName: 'SsoDomain' },
    )
  }
}
