import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type ModelAttributes,
  type NonAttribute,
  type Sequelize,
} from 'sequelize'
import { SEARCH_TEXT_LENGTH, searchTextOf } from './user-search-text.js'
import type { Role } from './role.js'
import type { Locale } from '../i18n/locales.js'

export class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
  declare id: CreationOptional<number>
  declare name: string
  declare email: string
  /** bcrypt hash; never serialised (see kernel/services/users.ts). */
  /** Null for an account made without one (a feature layer's: a provider's sign-up); a password reset sets one. */
  declare password: string | null
  declare roleId: number | null
  declare emailVerifiedAt: CreationOptional<Date | null>
  /** The language the user chose (kernel/i18n/locales.ts); null follows the browser's. */
  declare locale: CreationOptional<Locale | null>
  /** An admin's suspension (kernel/security/suspension.ts): since when, until when (null: until lifted), why. */
  declare suspendedAt: CreationOptional<Date | null>
  declare suspendedUntil: CreationOptional<Date | null>
  declare suspensionReason: CreationOptional<string | null>
  /** Folded name and e-mail for the users list's search; kept in step by the name and email setters. */
  declare search: CreationOptional<string>
  declare createdAt: CreationOptional<Date>
  declare updatedAt: CreationOptional<Date>
  declare Role?: NonAttribute<Role | null>

  /** `featureAttributes`: the columns feature layers add to `users` (features/<layer>/models.ts). */
  static initModel(sequelize: Sequelize, featureAttributes: ModelAttributes = {}): void {
    User.init(
      {
        ...(featureAttributes as ModelAttributes<User, InferAttributes<User>>),
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        // The setters run on create, build and instance updates. A bulk User.update() of name or
        // e-mail bypasses them: update through an instance so `search` follows.
        name: {
          type: DataTypes.STRING(255),
          allowNull: false,
          set(this: User, value: string) {
            this.setDataValue('name', value)
            this.setDataValue('search', searchTextOf(value, this.getDataValue('email') ?? ''))
          },
        },
        email: {
          type: DataTypes.STRING(255),
          allowNull: false,
          unique: true,
          set(this: User, value: string) {
            this.setDataValue('email', value)
            this.setDataValue('search', searchTextOf(this.getDataValue('name') ?? '', value))
          },
        },
        password: { type: DataTypes.TEXT, allowNull: true },
        roleId: { type: DataTypes.INTEGER, allowNull: true },
        emailVerifiedAt: { type: DataTypes.DATE, allowNull: true, defaultValue: null },
        locale: { type: DataTypes.STRING(16), allowNull: true, defaultValue: null },
        suspendedAt: { type: DataTypes.DATE, allowNull: true, defaultValue: null },
        suspendedUntil: { type: DataTypes.DATE, allowNull: true, defaultValue: null },
        suspensionReason: { type: DataTypes.STRING(500), allowNull: true, defaultValue: null },
        // VARBINARY on MySQL (see migration 0002-create-users): read back there, it is a Buffer.
        search: { type: DataTypes.STRING(SEARCH_TEXT_LENGTH), allowNull: false, defaultValue: '' },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'users', modelName: 'User' },
    )
  }
}
