import { QueryTypes } from 'sequelize'
import { describe, expect, it } from 'vitest'
import { connectDatabase, createSequelize } from '../src/kernel/db/database.js'
import { createMigrator } from '../src/kernel/db/migrator.js'
import { forDialect } from '../src/kernel/db/sql.js'
import { features } from '../src/features/index.js'
import { scratchDatabase } from './helpers/processes.js'

describe('`add teams` on an app with users', () => {
  it('the migration gives every existing user a personal team, its owner and current; down and up again, one each', async () => {
    const scratch = await scratchDatabase()
    const sequelize = createSequelize(scratch.url)
    const select = <T extends object>(text: string) => sequelize.query<T>(forDialect(text, sequelize.getDialect()), { type: QueryTypes.SELECT })
    try {
      await connectDatabase(sequelize)
      const migrator = createMigrator(sequelize, features)
      // The app before the layer: every migration but the teams layer's (and those after it).
      await migrator.up()
      await migrator.down({ to: 'teams-0001-create-teams' })
      const now = new Date()
      await sequelize.getQueryInterface().bulkInsert('users', [
        { name: 'Ann', email: 'ann@example.test', password: 'x', createdAt: now, updatedAt: now },
        { name: 'Ben', email: 'ben@example.test', password: 'x', createdAt: now, updatedAt: now },
      ])

      await migrator.up()
      const rows = await select<{ email: string; team: string; role: string; current: boolean }>(
        `SELECT u.email, t.name AS team, m.role, u."currentTeamId" = t.id AS current FROM users u
         JOIN teams t ON t."personalUserId" = u.id JOIN team_members m ON m."teamId" = t.id AND m."userId" = u.id ORDER BY u.email`,
      )
      expect(rows.map((row) => ({ ...row, current: Boolean(Number(row.current)) }))).toEqual([
        { email: 'ann@example.test', team: "Ann's Team", role: 'owner', current: true },
        { email: 'ben@example.test', team: "Ben's Team", role: 'owner', current: true },
      ])

      // Down and up again: still one personal team each, one member each.
      await migrator.down({ to: 'teams-0001-create-teams' })
      await migrator.up()
      expect(await select('SELECT id FROM teams')).toHaveLength(2)
      expect(await select('SELECT id FROM team_members')).toHaveLength(2)
    } finally {
      await sequelize.close()
      await scratch.drop()
    }
  })
})
