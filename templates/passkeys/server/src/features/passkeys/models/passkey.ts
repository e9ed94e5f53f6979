import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/** A passkey (a WebAuthn credential, discoverable, user-verifying) of one user. */
export class Passkey extends Model<InferAttributes<Passkey>, InferCreationAttributes<Passkey>> {
  declare id: CreationOptional<number>
  declare userId: number
  /** base64url, as the browser reports it. */
  declare credentialId: string
  /** The COSE public key, base64url. */
  declare publicKey: string
  /** The authenticator's signature counter at its last use (0 for the many that keep none). */
  declare counter: number
  declare transports: string | null
  declare name: string
  /** Synced to the owner's other devices (a password manager or a platform account). */
  declare backedUp: boolean
  declare createdAt: CreationOptional<Date>
  declare lastUsedAt: CreationOptional<Date | null>

  static initModel(sequelize: Sequelize): void {
    Passkey.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        userId: { type: DataTypes.INTEGER, allowNull: false },
        credentialId: { type: DataTypes.STRING(255), allowNull: false, unique: true },
        publicKey: { type: DataTypes.TEXT, allowNull: false },
        // MySQL and PostgreSQL hand BIGINT back as a string.
        counter: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0, get: numberOf('counter') },
        transports: { type: DataTypes.STRING(255), allowNull: true },
        name: { type: DataTypes.STRING(100), allowNull: false },
        backedUp: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        createdAt: DataTypes.DATE,
        lastUsedAt: { type: DataTypes.DATE, allowNull: true },
      },
      { sequelize, tableName: 'passkeys', modelName: 'Passkey', updatedAt: false },
    )
  }
}

function numberOf(attribute: 'counter') {
  return function (this: Passkey) {
    return Number(this.getDataValue(attribute))
  }
}
