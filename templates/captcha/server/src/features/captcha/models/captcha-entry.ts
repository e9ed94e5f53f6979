import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/**
 * A Cap challenge handed out, or a token its solution earned, in an app without Redis
 * (services/entries.ts): `key` is `challenge:` or `token:` and a SHA-256, hex, never the value a
 * client holds. Taken (deleted) when used, so each works once. Not a credential token: it proves
 * some work was done, for nobody in particular, and grants nothing but the next request.
 */
export class CaptchaEntry extends Model<InferAttributes<CaptchaEntry>, InferCreationAttributes<CaptchaEntry>> {
  declare key: string
  /** JSON: a challenge's `{c, s, d}`; empty for a token. */
  declare data: string
  /** Epoch milliseconds. */
  declare expiresAt: number

  static initModel(sequelize: Sequelize): void {
    CaptchaEntry.init(
      {
        key: { type: DataTypes.STRING(80), primaryKey: true },
        data: { type: DataTypes.TEXT, allowNull: false },
        expiresAt: { type: DataTypes.BIGINT, allowNull: false },
      },
      { sequelize, tableName: 'captcha_entries', modelName: 'CaptchaEntry', timestamps: false },
    )
  }
}
