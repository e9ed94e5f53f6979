/** The benchmarks' users, seeded in bulk inside a generated app (bench:app, bench:scale, bench:ab --login). */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { appEnv } from './app-env.js'
import { renderLinkedVariant } from './shared-install.js'
import type { WrkOptions } from './wrk.js'

/** Logins rotate over this many seeded accounts (user1…user64), so the per-account limit never trips. */
export const LOGIN_ACCOUNTS = 64

/** wrk's successful logins over the seeded accounts, all with `password`. */
export function seededLogins(password: string): NonNullable<WrkOptions['login']> {
  return { path: '/api/auth/login', accounts: LOGIN_ACCOUNTS, password }
}

/** Renders `variant` into `dir` on the shared install, builds it and seeds `users` users with `password`. */
export async function buildAndSeed(variant: string, dir: string, modules: string, env: NodeJS.ProcessEnv, users: number, password: string, step: (title: string) => void) {
  renderLinkedVariant(variant, dir, modules)
  step(`build ${variant}`)
  await execa('npm', ['run', 'build'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'inherit'] })
  step(`seed ${users.toLocaleString('en')} users`)
  await seedUsers(dir, env, users, password)
}

/** Migrates the built app in `dir` and seeds `users` users (user1@example.test on) with `password`. */
export async function seedUsers(dir: string, env: NodeJS.ProcessEnv, users: number, password: string) {
  writeFileSync(join(dir, 'bench-seed.ts'), seedScript())
  await execa(join(dir, 'node_modules', '.bin', 'tsx'), ['bench-seed.ts', String(users), password], { cwd: dir, env: appEnv(env), stdio: 'inherit' })
}

/**
 * Runs inside the generated app with its own modules: migrates, then inserts the users in
 * batches, their search column folded by the app's own function as the model would.
 */
function seedScript(): string {
  return `import { existsSync } from 'node:fs'
// Apps from before the kernel (a base revision's, for bench:ab) keep the core right in server/src/.
const core = (path: string) => (existsSync('./server/src/kernel') ? \`./server/src/kernel/\${path}\` : \`./server/src/\${path}\`)
import bcrypt from 'bcrypt'
const { connectDatabase, createSequelize } = await import(core('db/database.js'))
const { createMigrator } = await import(core('db/migrator.js'))
const { sql } = await import(core('db/sql.js'))
const { searchTextOf } = await import(core('models/user-search-text.js'))

const [count, password] = [Number(process.argv[2]), process.argv[3]]
const sequelize = createSequelize(process.env.DATABASE_URL)
await connectDatabase(sequelize)
// Apps rendered before the feature registry (a base revision's, for bench:ab) have no features/index.ts.
const features = await import('./server/src/features/index.js').then((registry) => registry.features, () => [])
const migrator = createMigrator(sequelize, features)
await migrator.up()
const hash = await bcrypt.hash(password, 10)
const insert = sql('INSERT INTO users (name, email, search, password, "roleId", "emailVerifiedAt", "createdAt", "updatedAt") VALUES ')(sequelize)
const [roles] = await sequelize.query('SELECT id, name FROM roles')
const roleId = (name) => roles.find((role) => role.name === name).id
const now = new Date()
const started = Date.now()
const batch = 500
await sequelize.transaction(async (transaction) => {
  for (let first = 1; first <= count; first += batch) {
    const rows = []
    const replacements = []
    for (let i = first; i < Math.min(first + batch, count + 1); i++) {
      // One user in seven is an Élodie: the non-ASCII search row matches 1 in 7.
      const name = i === 1 ? 'Admin' : i % 7 === 0 ? 'Élodie Dubois ' + i : 'User ' + i
      const email = 'user' + i + '@example.test'
      rows.push('(?, ?, ?, ?, ?, ?, ?, ?)')
      replacements.push(name, email, searchTextOf(name, email), hash, roleId(i === 1 ? 'admin' : 'user'), now, now, now)
    }
    await sequelize.query(insert + rows.join(', '), { replacements, transaction })
  }
})
console.log('inserted ' + count + ' users in ' + ((Date.now() - started) / 1000).toFixed(1) + ' s')
// What autovacuum does within a minute of a bulk load: statistics, and the visibility map that
// lets PostgreSQL count and page from an index alone.
if (sequelize.getDialect() === 'postgres') await sequelize.query('VACUUM ANALYZE')
await sequelize.close()
`
}
