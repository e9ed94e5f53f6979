/**
 * What the breached-password check costs (issue 38): the `sqlite` app twice in one process, one
 * with PWNED_PASSWORDS=on against a local stand-in of the range API and one with it off, driven
 * alternately, one request at a time: register and login p50, and the stand-in's own round trip
 * (a bare fetch of one range) beside them. Registration may cost at most that round trip more;
 * login sets no password and must not move.
 *
 *   npm run bench:breach [-- --rounds 5 --requests 40]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { execa } from 'execa'
import { appEnv } from './lib/app-env.js'
import { renderLinkedVariant, sharedNodeModules } from './lib/shared-install.js'

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, requests: { type: 'string', default: '40' }, keep: { type: 'boolean', default: false } } })

const dir = mkdtempSync(join(tmpdir(), 'cca-bench-breach-'))
try {
  renderLinkedVariant('sqlite', dir, await sharedNodeModules())
  writeFileSync(join(dir, 'bench-breach.ts'), script())
  await execa(join(dir, 'node_modules', '.bin', 'tsx'), ['bench-breach.ts', values.rounds!, values.requests!], {
    cwd: dir,
    env: { ...appEnv(), NODE_ENV: 'test', LOG_LEVEL: 'silent' },
    stdio: 'inherit',
  })
} finally {
  if (values.keep) console.log(`kept ${dir}`)
  else rmSync(dir, { recursive: true, force: true })
}

/** Runs inside the generated app with its own modules. */
function script(): string {
  return `import { existsSync } from 'node:fs'
// Apps from before the kernel (a base revision's, for bench:ab) keep the core right in server/src/.
const core = (path: string) => (existsSync('./server/src/kernel') ? \`./server/src/kernel/\${path}\` : \`./server/src/\${path}\`)
import { createHash, randomBytes } from 'node:crypto'
import http from 'node:http'
import { createApp } from './server/src/app.js'
const { parseEnv } = await import(core('config/env.js'))
import { createAppContext } from './server/src/create-context.js'
const { createMigrator } = await import(core('db/migrator.js'))
const { connectDatabase, createSequelize } = await import(core('db/database.js'))
import { features } from './server/src/features/index.js'
const { createLogger } = await import(core('logger.js'))

const [rounds, requests] = process.argv.slice(2).map(Number)
const standIn = http.createServer((req, res) => {
  const lines = Array.from({ length: 800 }, (_, i) => i.toString(16).toUpperCase().padStart(35, '0') + ':' + (i % 3))
  res.writeHead(200, { 'Content-Type': 'text/plain' }).end(lines.join('\\r\\n'))
})
await new Promise((resolve) => standIn.listen(0, '127.0.0.1', resolve))
const standInUrl = 'http://127.0.0.1:' + standIn.address().port

const sequelize = createSequelize('sqlite:' + process.cwd() + '/data/bench-breach.sqlite')
await connectDatabase(sequelize)
await createMigrator(sequelize, features).up()
const secret = () => randomBytes(32).toString('hex')
const secrets = { JWT_ACCESS_SECRET: secret(), JWT_REFRESH_SECRET: secret(), COOKIE_SECRET: secret() }

async function serve(pwned) {
  const env = parseEnv({ NODE_ENV: 'test', ...secrets, PWNED_PASSWORDS: pwned, PWNED_PASSWORDS_URL: standInUrl }, features)
  const ctx = await createAppContext({ env, sequelize, logger: createLogger('test'), rateLimits: Object.fromEntries(['loginPerEmailIp', 'loginPerIp', 'registerPerIp', 'registerPerEmailIp', 'registerPerEmailIpHourly'].map((name) => [name, { limit: 1e9, windowMs: 60000 }])) })
  const server = createApp(ctx).listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  return { url: 'http://127.0.0.1:' + server.address().port, server, ctx }
}

const apps = { on: await serve('on'), off: await serve('off') }
const samples = { register: { on: [], off: [], diff: [] }, login: { on: [], off: [], diff: [] }, roundTrip: [] }
const post = (url, body) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: 'http://localhost:3000' }, body: JSON.stringify(body) })
let n = 0
async function time(work) {
  const started = performance.now()
  const res = await work()
  await res.arrayBuffer()
  if (res.status >= 300) throw new Error('status ' + res.status)
  return performance.now() - started
}
// Pairs back to back, their order alternating: the machine's drift (bcrypt's 60-70 ms swing by a
// few ms from one second to the next) hits both halves of a pair alike, and the median of the
// pairs' differences is the check's own cost.
for (let i = 0; i < rounds * requests; i++) {
  const order = i % 2 ? ['off', 'on'] : ['on', 'off']
  const taken = {}
  for (const which of order) {
    const email = 'bench-' + which + '-' + n++ + '@example.test'
    const password = 'a fresh secret ' + n
    taken[which] = { register: await time(() => post(apps[which].url + '/api/auth/register', { name: 'Bench', email, password })) }
    taken[which].login = await time(() => post(apps[which].url + '/api/auth/login', { email, password }))
    const prefix = createHash('sha1').update(password).digest('hex').slice(0, 5).toUpperCase()
    samples.roundTrip.push(await time(() => fetch(standInUrl + '/range/' + prefix, { headers: { 'Add-Padding': 'true' } })))
  }
  for (const kind of ['register', 'login']) {
    samples[kind].on.push(taken.on[kind])
    samples[kind].off.push(taken.off[kind])
    samples[kind].diff.push(taken.on[kind] - taken.off[kind])
  }
}
const p50 = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]
const ms = (value) => value.toFixed(2) + ' ms'
console.log('breach check: ' + rounds * requests + ' pairs (check on, check off), back to back in alternating order, one request at a time')
console.log('stand-in round trip p50             ' + ms(p50(samples.roundTrip)))
for (const kind of ['register', 'login']) {
  console.log((kind + ' p50').padEnd(13) + ' on ' + ms(p50(samples[kind].on)).padStart(9) + '  off ' + ms(p50(samples[kind].off)).padStart(9) + '  median of paired differences ' + ms(p50(samples[kind].diff)))
}
const extra = p50(samples.register.diff)
console.log('register: the check adds ' + ms(extra) + ' against a round trip of ' + ms(p50(samples.roundTrip)) + (extra <= p50(samples.roundTrip) ? ': within it' : ': MORE than it'))
for (const app of Object.values(apps)) { app.server.close(); await app.ctx.close() }
standIn.close()
await sequelize.close()
`
}
