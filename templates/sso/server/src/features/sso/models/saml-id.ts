import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/** A SAML request or assertion id, or an OpenID sign-in's state, remembered until `expiresAt` (services/saml-ids.ts), where there is no Redis. */
export class SamlId extends Model<InferAttributes<SamlId>, InferCreationAttributes<SamlId>> {
  declare key: string
  declare expiresAt: Date

  static initModel(sequelize: Sequelize): void {
    SamlId.init(
      {
        key: { type: DataTypes.STRING(100), primaryKey: true },
        expiresAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'sso_saml_ids', modelName: 'SamlId', timestamps: false },
    )
  }
}
