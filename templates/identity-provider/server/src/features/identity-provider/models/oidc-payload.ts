import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/**
 * What oidc-provider keeps (its grants, codes, refresh and opaque access tokens, sessions and
 * interactions), one row per object of every kind, through services/adapter.ts. The key is the
 * SHA-256 of the kind and the object's id, never the id: the id of a code or a token is the code
 * or the token itself.
 */
export class OidcPayload extends Model<InferAttributes<OidcPayload>, InferCreationAttributes<OidcPayload>> {
  /** SHA-256 (hex) of `<kind>:<id>`. */
  declare id: string
  declare kind: string
  /** The object as oidc-provider gave it, JSON, without its id. */
  declare payload: string
  declare grantId: string | null
  /** The client it was issued to, for a person's list of apps and a deleted client's clean-up. */
  declare clientId: string | null
  /** SHA-256 (hex) of a device code's user code: what the person types. */
  declare userCodeHash: string | null
  /** SHA-256 (hex) of a session's fixed uid. */
  declare uid: string | null
  /** The person the object belongs to: every revoking credential event of theirs deletes it. */
  declare userId: number | null
  declare expiresAt: Date | null
  declare consumedAt: Date | null

  static initModel(sequelize: Sequelize): void {
    OidcPayload.init(
      {
        id: { type: DataTypes.STRING(64), primaryKey: true },
        kind: { type: DataTypes.STRING(40), allowNull: false },
        payload: { type: DataTypes.TEXT, allowNull: false },
        grantId: { type: DataTypes.STRING(64), allowNull: true },
        clientId: { type: DataTypes.STRING(64), allowNull: true },
        userCodeHash: { type: DataTypes.STRING(64), allowNull: true },
        uid: { type: DataTypes.STRING(64), allowNull: true },
        userId: { type: DataTypes.INTEGER, allowNull: true },
        expiresAt: { type: DataTypes.DATE, allowNull: true },
        consumedAt: { type: DataTypes.DATE, allowNull: true },
      },
      { sequelize, tableName: 'oidc_payloads', modelName: 'OidcPayload', timestamps: false },
    )
  }
}
