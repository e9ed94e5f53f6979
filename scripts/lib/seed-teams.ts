/** bench:app's teams, seeded in bulk inside a generated app with the teams layer, after its users (seed-users.ts). */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { appEnv } from './app-env.js'

/** Members of the one big team (user1, its owner, and the next users in id order). */
export const BIG_TEAM_MEMBERS = 10_000
/** Shared teams in all, the big one included. */
export const TEAMS = 1_000
export const BIG_TEAM_NAME = 'Bench 10k'

/**
 * A personal team for every seeded user (as the layer's migration gives users made before it),
 * then the big team, then the other shared teams with 100 members each, drawn across the users:
 * the index the members list walks holds every team's rows, not the big one's alone.
 */
export async function seedTeams(dir: string, env: NodeJS.ProcessEnv, users: number) {
  if (users < BIG_TEAM_MEMBERS) throw new Error(`the teams rows need at least ${BIG_TEAM_MEMBERS} users (--users)`)
  writeFileSync(join(dir, 'bench-seed-teams.ts'), seedScript())
  await execa(join(dir, 'node_modules', '.bin', 'tsx'), ['bench-seed-teams.ts', String(users)], { cwd: dir, env: appEnv(env), stdio: 'inherit' })
}

function seedScript(): string {
  return `import { existsSync } from 'node:fs'
// Apps from before the kernel (a base revision's, for bench:ab) keep the core right in server/src/.
const core = (path: string) => (existsSync('./server/src/kernel') ? \`./server/src/kernel/\${path}\` : \`./server/src/\${path}\`)
const { connectDatabase, createSequelize } = await import(core('db/database.js'))
const { forDialect } = await import(core('db/sql.js'))

const users = Number(process.argv[2])
const sequelize = createSequelize(process.env.DATABASE_URL)
await connectDatabase(sequelize)
const dialect = sequelize.getDialect()
const q = (text) => forDialect(text, dialect)
const now = new Date()
const started = Date.now()
await sequelize.transaction(async (transaction) => {
  const run = (text, replacements = {}) => sequelize.query(q(text), { replacements: { now, ...replacements }, transaction })
  const teamName = dialect === 'mysql' ? "CONCAT(u.name, '''s Team')" : "u.name || '''s Team'"
  await run(\`INSERT INTO teams (name, "personalUserId", "createdAt", "updatedAt") SELECT \${teamName}, u.id, :now, :now FROM users u\`)
  await run(\`INSERT INTO team_members ("teamId", "userId", role, "createdAt", "updatedAt") SELECT t.id, t."personalUserId", 'owner', :now, :now FROM teams t WHERE t."personalUserId" IS NOT NULL\`)
  await run(\`UPDATE users SET "currentTeamId" = (SELECT t.id FROM teams t WHERE t."personalUserId" = users.id)\`)

  const shared = []
  for (let i = 0; i < ${TEAMS}; i++) shared.push(i === 0 ? '${BIG_TEAM_NAME}' : 'Team ' + i)
  const [lowest] = await sequelize.query(q('SELECT MIN(id) AS id FROM users'), { type: 'SELECT', transaction })
  const firstUser = Number(lowest.id)
  const ids = []
  for (const name of shared) {
    await run('INSERT INTO teams (name, "createdAt", "updatedAt") VALUES (:name, :now, :now)', { name })
    const [row] = await sequelize.query(q('SELECT MAX(id) AS id FROM teams'), { type: 'SELECT', transaction })
    ids.push(Number(row.id))
  }
  const members = []
  // The big team: the first ${BIG_TEAM_MEMBERS} users, the first its owner; joined a second apart, so the join order is total.
  for (let i = 0; i < ${BIG_TEAM_MEMBERS}; i++) members.push([ids[0], firstUser + i, i === 0 ? 'owner' : i % 50 === 0 ? 'admin' : 'member', new Date(now.getTime() + i * 1000)])
  for (let t = 1; t < ids.length; t++) {
    for (let i = 0; i < 100; i++) members.push([ids[t], firstUser + ((t * 100 + i) * 7919) % users, i === 0 ? 'owner' : 'member', now])
  }
  const seen = new Set()
  const unique = members.filter(([team, user]) => !seen.has(team + ':' + user) && seen.add(team + ':' + user))
  for (let first = 0; first < unique.length; first += 500) {
    const rows = unique.slice(first, first + 500)
    await sequelize.query(q('INSERT INTO team_members ("teamId", "userId", role, "createdAt", "updatedAt") VALUES ') + rows.map(() => '(?, ?, ?, ?, ?)').join(', '), {
      replacements: rows.flatMap(([team, user, role, at]) => [team, user, role, at, at]),
      transaction,
    })
  }
  console.log('seeded ' + users + ' personal teams, ' + ids.length + ' shared teams, ' + unique.length + ' shared memberships in ' + ((Date.now() - started) / 1000).toFixed(1) + ' s')
})
if (dialect === 'postgres') await sequelize.query('VACUUM ANALYZE')
await sequelize.close()
`
}
