import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { connectDatabase, createSequelize } from '../src/kernel/db/database.js'
import { createMigrator } from '../src/kernel/db/migrator.js'
import { features } from '../src/features/index.js'
import { scratchDatabase } from './helpers/processes.js'

const folder = new URL('../src/kernel/db/migrations/', import.meta.url)
const slices = new URL('../src/features/', import.meta.url)

describe('migrations', () => {
  it('import no application code: a migration is history, and must not change when a service does', () => {
    const imports = (url: URL) => [...readFileSync(url, 'utf8').matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((match) => match[1]!)
    // index.ts is the list (base's and the feature layers'), not a migration.
    const files = readdirSync(folder).filter((file) => file.endsWith('.ts') && file !== 'index.ts')
    expect(files).toContain('0001-create-roles.ts')
    for (const file of files) {
      const outside = imports(new URL(file, folder)).filter((source) => !['sequelize', 'umzug'].includes(source) && !/^\.\/[^/]+\.js$/.test(source))
      expect(outside, file).toEqual([])
    }
    // A slice's migrations take their types from db/migrations/types.ts, and nothing else of the app.
    for (const slice of readdirSync(slices, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
      const own = new URL(`${slice.name}/migrations/`, slices)
      if (!existsSync(own)) continue
      for (const file of readdirSync(own).filter((name) => name.endsWith('.ts'))) {
        const outside = imports(new URL(file, own)).filter((source) => !['sequelize', 'umzug', '../../../db/migrations/types.js'].includes(source) && !/^\.\/[^/]+\.js$/.test(source))
        expect(outside, `${slice.name}/migrations/${file}`).toEqual([])
      }
    }
  })

  it('down undoes up, down to an empty database, and up again', async () => {
    const scratch = await scratchDatabase()
    const sequelize = createSequelize(scratch.url)
    try {
      await connectDatabase(sequelize)
      const migrator = createMigrator(sequelize, features)
      const tables = async () =>
        (await sequelize.getQueryInterface().showAllTables()).map(String).filter((table) => table !== 'migrations').sort()
      await migrator.up()
      const created = await tables()
      expect(created).toEqual(expect.arrayContaining(['roles', 'users', 'security_events']))
      await migrator.down({ to: 0 })
      expect(await tables()).toEqual([])
      await migrator.up()
      expect(await tables()).toEqual(created)
      expect(await migrator.pending()).toEqual([])
    } finally {
      await sequelize.close()
      await scratch.drop()
    }
  })
})
