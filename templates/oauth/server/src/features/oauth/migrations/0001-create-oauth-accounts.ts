import { DataTypes, QueryTypes, type QueryInterface } from 'sequelize'
import { tableOptions, type Migration } from '../../../db/migrations/types.js'

/**
 * Social sign-in: the provider accounts linked to users, the flows under way (kept here so any
 * instance finishes what another began), and users without a password (made by a provider).
 */
export const up: Migration = async ({ context: queryInterface }) => {
  await setPasswordRequired(queryInterface, false)

  const dialect = queryInterface.sequelize.getDialect()
  // A provider's subject is case-sensitive: MySQL's default collation would take `a` for `A`.
  const subject = dialect === 'mysql' || dialect === 'mariadb' ? 'VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin' : DataTypes.STRING(255)
  await queryInterface.createTable(
    'oauth_accounts',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
      userId: {
        type: DataTypes.INTEGER,
        allowNull: false,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
        onUpdate: 'CASCADE',
      },
      provider: { type: DataTypes.STRING(32), allowNull: false },
      subject: { type: subject, allowNull: false },
      email: { type: DataTypes.STRING(255), allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('oauth_accounts', ['provider', 'subject'], { name: 'oauth_accounts_provider_subject', unique: true })
  // One account per provider and user: settings link and unlink by provider.
  await queryInterface.addIndex('oauth_accounts', ['userId', 'provider'], { name: 'oauth_accounts_user_provider', unique: true })

  await queryInterface.createTable(
    'oauth_flows',
    {
      // The SHA-256 of the flow's `state`.
      id: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
      provider: { type: DataTypes.STRING(32), allowNull: false },
      userId: {
        type: DataTypes.INTEGER,
        allowNull: true,
        references: { model: 'users', key: 'id' },
        onDelete: 'CASCADE',
        onUpdate: 'CASCADE',
      },
      sessionId: { type: DataTypes.STRING(64), allowNull: true },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    tableOptions,
  )
  await queryInterface.addIndex('oauth_flows', ['userId'], { name: 'oauth_flows_user' })
  await queryInterface.addIndex('oauth_flows', ['expiresAt'], { name: 'oauth_flows_expires' })
}

export const down: Migration = async ({ context: queryInterface }) => {
  const [{ count }] = await queryInterface.sequelize.query<{ count: number | string }>('SELECT COUNT(*) AS count FROM users WHERE password IS NULL', {
    type: QueryTypes.SELECT,
  }) as [{ count: number | string }]
  if (Number(count) > 0) {
    throw new Error(`${count} accounts have no password (made by a provider): give them one (a password reset) before undoing social sign-in.`)
  }
  await queryInterface.dropTable('oauth_flows')
  await queryInterface.dropTable('oauth_accounts')
  await setPasswordRequired(queryInterface, true)
}

/**
 * users.password NOT NULL or not. SQLite cannot alter a column; rebuilding `users` would drop and
 * recreate its indexes and triggers and every foreign key to it. Dropping a NOT NULL is one of
 * the changes SQLite documents as safe to make in the stored schema itself, as done here
 * (https://www.sqlite.org/lang_altertable.html, "Making Other Kinds Of Table Schema Changes").
 */
async function setPasswordRequired(queryInterface: QueryInterface, required: boolean): Promise<void> {
  const sequelize = queryInterface.sequelize
  const dialect = sequelize.getDialect()
  if (dialect === 'postgres') {
    await sequelize.query(`ALTER TABLE users ALTER COLUMN password ${required ? 'SET' : 'DROP'} NOT NULL`)
  } else if (dialect === 'mysql' || dialect === 'mariadb') {
    await sequelize.query(`ALTER TABLE users MODIFY password TEXT ${required ? 'NOT NULL' : 'NULL'}`)
  } else {
    await sequelize.transaction(async (transaction) => {
      const [row] = await sequelize.query<{ sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'users'", { type: QueryTypes.SELECT, transaction })
      const [required_, optional] = ['`password` TEXT NOT NULL', '`password` TEXT']
      const [from, to] = required ? [optional, required_] : [required_, optional]
      if (!row?.sql.includes(from)) throw new Error(`users.password is not declared as ${from}: ${row?.sql}`)
      const [version] = await sequelize.query<{ schema_version: number }>('PRAGMA schema_version', { type: QueryTypes.SELECT, transaction })
      await sequelize.query('PRAGMA writable_schema = ON', { transaction })
      await sequelize.query("UPDATE sqlite_master SET sql = $sql WHERE type = 'table' AND name = 'users'", {
        bind: { sql: row.sql.replace(from, to) },
        transaction,
      })
      await sequelize.query(`PRAGMA schema_version = ${version!.schema_version + 1}`, { transaction })
      await sequelize.query('PRAGMA writable_schema = OFF', { transaction })
    })
  }
}
