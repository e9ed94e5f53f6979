/**
 * bench:app's SSO rows, for a variant with --sso. The SCIM row: for a variant with --sso: the big team's owner (user1) makes a SCIM token
 * through the API (a fresh confirmation first, as the route asks), and an IdP's most frequent
 * question, "is this person already there?" (`GET /scim/v2/Users?filter=userName eq "…"`), is
 * asked one request after the other for a member in the middle of the 10,000, among 100,000 users.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { appEnv } from './app-env.js'
import { BIG_TEAM_MEMBERS, BIG_TEAM_NAME } from './seed-teams.js'
import { wrk, type WrkResult } from './wrk.js'

export async function scimFilterRun(base: string, cookie: string, password: string, seconds: number): Promise<{ run: WrkResult; userName: string; teamId: number }> {
  const call = async (method: string, path: string, body?: object) => {
    const res = await fetch(`${base}${path}`, { method, headers: { Cookie: cookie, 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) })
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
    return res.json() as Promise<Record<string, unknown>>
  }
  const teams = (await call('GET', '/api/teams')) as { data: { id: number; name: string }[] }
  const big = teams.data.find((team) => team.name === BIG_TEAM_NAME)
  if (!big) throw new Error(`GET /api/teams: no team ${BIG_TEAM_NAME}`)
  await call('POST', '/api/account/confirm', { password })
  const { token } = (await call('POST', `/api/teams/${big.id}/scim-tokens`)) as { token?: unknown }
  if (typeof token !== 'string') throw new Error('POST /api/teams/:id/scim-tokens answered no token')
  // The members are user1 to user10000 (seed-teams.ts): one in the middle.
  const userName = `user${BIG_TEAM_MEMBERS / 2}@example.test`
  const url = `${base}/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`
  const check = await fetch(url, { headers: { Authorization: `Bearer ${token}` } })
  const found = (await check.json()) as { totalResults?: number }
  if (check.status !== 200 || found.totalResults !== 1) throw new Error(`GET ${url}: ${check.status}, totalResults ${found.totalResults}`)
  const run = await wrk(url, { connections: 1, seconds: Math.max(3, seconds / 2), headers: { Authorization: `Bearer ${token}` } })
  return { run, userName, teamId: big.id }
}

/** The SSO answer limit (per IP) and SCIM's (per token) lifted: the rows measure the sign-in and the filter, not the 429. */
export const BENCH_SSO_ENV = { RATE_LIMIT_SSO_ANSWER_PER_IP: '999999999', RATE_LIMIT_SSO_SCIM_PER_TOKEN: '999999999' }

/** Answers posted one after the other for the SAML row. */
const SAML_SIGN_INS = 200

/**
 * bench:app's SAML row, for a variant with --sso: a script inside the app (it has the IdP
 * stand-in of the app's own tests, which signs with xml-crypto) gives the big team a verified
 * example.test and a SAML connection that takes sign-ins started at the IdP, signs an answer for
 * each of 200 members, then posts them to the team's ACS one after the other: each a whole SSO
 * sign-in (prechecks, node-saml's signature and conditions, the assertion id taken, the account,
 * the session and its cookies). The time is measured by the script around each POST.
 */
export async function samlSignInTimes(dir: string, env: NodeJS.ProcessEnv, base: string, teamId: number): Promise<{ p50: number; p99: number; count: number }> {
  writeFileSync(join(dir, 'bench-saml.ts'), samlScript())
  const { stdout } = await execa(join(dir, 'node_modules', '.bin', 'tsx'), ['bench-saml.ts', base, String(teamId), String(SAML_SIGN_INS)], { cwd: dir, env: appEnv(env), stderr: 'inherit' })
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { p50: number; p99: number; count: number }
}

function samlScript(): string {
  return `const { samlIdp } = await import('./server/tests/helpers/saml-idp.ts')
const { parseIdpMetadata } = await import('./server/src/features/sso/services/idp-metadata.ts')
const { serviceProvider } = await import('./server/src/features/sso/services/service-provider.ts')
const { connectDatabase, createSequelize } = await import('./server/src/kernel/db/database.ts')
const { forDialect } = await import('./server/src/kernel/db/sql.ts')

const [base, teamId, count] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])]
const sequelize = createSequelize(process.env.DATABASE_URL)
await connectDatabase(sequelize)
const q = (text) => forDialect(text, sequelize.getDialect())
const idp = samlIdp('bench')
const now = new Date()
await sequelize.query(q('INSERT INTO sso_domains ("teamId", domain, "txtValue", "verifiedDomain", "verifiedAt", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?)'), { replacements: [teamId, 'example.test', 'bench', 'example.test', now, now, now] })
await sequelize.query(q('INSERT INTO sso_connections ("teamId", type, settings, "defaultRole", "requireSso", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?)'), { replacements: [teamId, 'saml', JSON.stringify({ ...parseIdpMetadata(idp.metadata), allowIdpInitiated: true }), 'member', false, now, now] })
await sequelize.close()

const sp = serviceProvider(base, teamId)
// Members 2 to count + 1 of the big team (user1 is its owner): signed before the clock starts.
const answers = Array.from({ length: count }, (_, i) => idp.answer({ email: 'user' + (i + 2) + '@example.test', audience: sp.entity_id, recipient: sp.acs_url }))
const times = []
for (const answer of answers) {
  const started = performance.now()
  const res = await fetch(sp.acs_url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.example.test' }, body: new URLSearchParams({ SAMLResponse: answer }) })
  await res.arrayBuffer()
  times.push(performance.now() - started)
  if (res.status !== 303 || res.headers.get('location') !== '/') throw new Error('the ACS answered ' + res.status + ' to ' + res.headers.get('location'))
}
times.sort((a, b) => a - b)
console.log(JSON.stringify({ p50: times[Math.floor(times.length / 2)], p99: times[Math.floor(times.length * 0.99)], count }))
`
}
