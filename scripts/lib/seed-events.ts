/** Credential events seeded in bulk inside a generated app (bench:export). */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { appEnv } from './app-env.js'

/**
 * Inserts `count` events into the migrated app in `dir`, one a second from `start` on, spread over
 * the seeded users `user1…user<users>` (ids 1…users), with the agents, addresses, types and
 * `meta` that real sign-ins leave.
 */
export async function seedEvents(dir: string, env: NodeJS.ProcessEnv, count: number, users: number, start: Date) {
  writeFileSync(join(dir, 'bench-seed-events.ts'), seedScript())
  await execa(join(dir, 'node_modules', '.bin', 'tsx'), ['bench-seed-events.ts', String(count), String(users), String(start.getTime())], { cwd: dir, env: appEnv(env), stdio: 'inherit' })
}

function seedScript(): string {
  return `import { existsSync } from 'node:fs'
// Apps from before the kernel (a base revision's, for bench:ab) keep the core right in server/src/.
const core = (path: string) => (existsSync('./server/src/kernel') ? \`./server/src/kernel/\${path}\` : \`./server/src/\${path}\`)
const { connectDatabase, createSequelize } = await import(core('db/database.js'))
const { sql } = await import(core('db/sql.js'))

const [count, users, start] = process.argv.slice(2).map(Number)
const sequelize = createSequelize(process.env.DATABASE_URL)
await connectDatabase(sequelize)
const agents = [
  'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
]
const types = [['sign_in', { method: 'password' }], ['sign_in_failed', { factor: 'password' }], ['sign_out', null], ['sessions_revoked', { scope: 'others' }]]
const insert = sql('INSERT INTO security_events ("userId", type, "sessionId", ip, "userAgent", device, network, meta, revoking, "createdAt") VALUES ')(sequelize)
const started = Date.now()
const batch = 500
await sequelize.transaction(async (transaction) => {
  for (let first = 0; first < count; first += batch) {
    const rows = []
    const replacements = []
    for (let i = first; i < Math.min(first + batch, count); i++) {
      const [type, meta] = types[i % types.length]
      const ip = '198.51.100.' + (i % 250)
      rows.push('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      replacements.push((i % users) + 1, type, null, ip, agents[i % agents.length], null, '198.51.100.0/24', meta && JSON.stringify(meta), type === 'sessions_revoked', new Date(start + i * 1000))
    }
    await sequelize.query(insert + rows.join(', '), { replacements, transaction })
  }
})
console.log('inserted ' + count + ' security events in ' + ((Date.now() - started) / 1000).toFixed(1) + ' s')
await sequelize.close()
`
}
