import { ensureDatabaseExists } from '../kernel/db/database.js'
import { createMigrator } from '../kernel/db/migrator.js'
import { connectOrExit, features, loadEnvOrExit } from './bootstrap.js'

// Usage: db:migrate [up|down|status]. `down` reverts the last migration.
const command = process.argv[2] ?? 'up'
if (!['up', 'down', 'status'].includes(command)) {
  console.error(`Unknown command "${command}": use up, down or status.`)
  process.exit(1)
}

const env = loadEnvOrExit()
await ensureDatabaseExists(env.DATABASE_URL).catch(() => {
  // Lacking CREATE DATABASE rights is fine when the database exists; connecting tells.
})
const sequelize = await connectOrExit(env)
const migrator = createMigrator(sequelize, features)
try {
  if (command === 'status') {
    for (const m of await migrator.executed()) console.log(`applied  ${m.name}`)
    for (const m of await migrator.pending()) console.log(`pending  ${m.name}`)
  } else if (command === 'down') {
    const reverted = await migrator.down()
    console.log(reverted.length ? `Reverted ${reverted.map((m) => m.name).join(', ')}` : 'Nothing to revert.')
  } else {
    const applied = await migrator.up()
    console.log(applied.length ? `Applied ${applied.map((m) => m.name).join(', ')}` : 'Database is up to date.')
  }
} catch (error) {
  console.error(`Migration failed: ${(error as Error).message}`)
  process.exitCode = 1
} finally {
  await sequelize.close()
}
