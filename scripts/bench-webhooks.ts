/**
 * Webhooks at load: generates and builds a variant, starts the built server (NODE_ENV=production,
 * WEBHOOK_ALLOW_PRIVATE=on so it may reach a receiver on this machine) and a local https receiver
 * that answers 200 at once (a self-signed certificate made with openssl, which the server trusts
 * through NODE_EXTRA_CA_CERTS: production takes https only), then measures:
 * - throughput: `--messages` test messages queued as fast as 20 connections can ask
 *   (`POST /api/webhooks/:id/test`), and the messages delivered per second, from the first request
 *   to the last arrival;
 * - latency under bench:app's login storm (16 connections of successful logins for `--seconds`):
 *   an endpoint takes `sign_in`, and each message's time from its event (the `timestamp` it
 *   carries: when the event's row was written) to its arrival at the receiver, p50, p99 and max.
 *
 *   npm run bench:webhooks -- [sqlite] [--messages 2000] [--seconds 10] [--keep]
 *
 * A variant on Redis (its id says -redis) delivers through BullMQ, else through the in-process
 * queue. It is a benchmark, not a test: it prints numbers and never fails on them.
 */
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { execa } from 'execa'
import { ALL_VARIANT_IDS, variant as findVariant, variantAnswers } from '../src/variants.js'
import { appEnv } from './lib/app-env.js'
import { freshDatabase } from './lib/database.js'
import { freePort } from './lib/ports.js'
import { fmt, ms } from './lib/report.js'
import { buildAndSeed, seededLogins } from './lib/seed-users.js'
import { killServers, login, startArgs, startServer } from './lib/server-process.js'
import { sharedNodeModules } from './lib/shared-install.js'
import { ensureWrk, wrk } from './lib/wrk.js'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    messages: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '10' },
    keep: { type: 'boolean', default: false },
  },
})
const variant = positionals[0] ?? 'sqlite'
if (!ALL_VARIANT_IDS.includes(variant)) throw new Error(`unknown variant ${variant}; known: ${ALL_VARIANT_IDS.join(', ')}`)
const MESSAGES = Number(values.messages)
const SECONDS = Number(values.seconds)
const USERS = 100
const PASSWORD = 'bench password 1'

await ensureWrk()
const answers = variantAnswers(variant)
const modules = await sharedNodeModules()
const root = mkdtempSync(join(tmpdir(), 'cca-bench-webhooks-'))
const dir = join(root, variant)
const database = await freshDatabase(answers.db, `cca_bench_${randomBytes(4).toString('hex')}`)
const env: NodeJS.ProcessEnv = {
  ...appEnv(),
  NODE_ENV: 'production',
  DATABASE_URL: database?.url ?? `sqlite:${join(dir, 'data', 'bench.sqlite')}`,
  REDIS_URL: findVariant(variant).redis ? (process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379') : '',
  REDIS_PREFIX: `bench-${randomBytes(3).toString('hex')}:`,
  SMTP_URL: '',
  MAIL_TRANSPORT: 'log',
  WEBHOOK_ALLOW_PRIVATE: 'on',
}
delete env.npm_config_user_agent

// The receiver's certificate, for 127.0.0.1, trusted by the server alone.
const key = join(root, 'receiver-key.pem')
const cert = join(root, 'receiver-cert.pem')
await execa('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert])
env.NODE_EXTRA_CA_CERTS = cert

/** Arrivals at the receiver, by path: when, and the message's own timestamp. */
const arrivals = new Map<string, { at: number; eventAt: number; id: string }[]>()
const receiver = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (chunk: Buffer) => chunks.push(chunk))
  req.on('end', () => {
    const at = Date.now()
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string }
    const list = arrivals.get(req.url ?? '/') ?? []
    list.push({ at, eventAt: Date.parse(message.timestamp), id: String(req.headers['webhook-id']) })
    arrivals.set(req.url ?? '/', list)
    res.writeHead(200).end()
  })
})

try {
  await buildAndSeed(variant, dir, modules, env, USERS, PASSWORD, step)
  receiver.listen(0, '127.0.0.1')
  await once(receiver, 'listening')
  const hook = (path: string) => `https://127.0.0.1:${(receiver.address() as AddressInfo).port}${path}`

  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  await startServer(startArgs(dir), { ...env, PORT: String(port), BASE_URL: base }, dir, port, '/api/health')
  const { cookies } = await login(base, 'user1@example.test', PASSWORD)
  const headers = { Cookie: Object.entries(cookies).map(([name, value]) => `${name}=${value}`).join('; '), Origin: base, 'Content-Type': 'application/json' }
  const register = async (path: string, events: string[]) => {
    const res = await fetch(`${base}/api/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: hook(path), events }) })
    if (res.status !== 201) throw new Error(`POST /api/webhooks: ${res.status} ${await res.text()}`)
    return ((await res.json()) as { webhook: { id: number } }).webhook.id
  }

  step(`throughput: ${fmt(MESSAGES)} test messages, 20 connections asking`)
  // Test messages go to their endpoint whatever it takes; this one takes an event the bench never raises.
  const bulk = await register('/bulk', ['password_reset'])
  const started = Date.now()
  let next = 0
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next++ < MESSAGES) {
        const res = await fetch(`${base}/api/webhooks/${bulk}/test`, { method: 'POST', headers })
        if (res.status !== 202) throw new Error(`POST /api/webhooks/${bulk}/test: ${res.status}`)
      }
    }),
  )
  const queuedIn = Date.now() - started
  await until(() => (arrivals.get('/bulk')?.length ?? 0) >= MESSAGES, 600_000)
  const bulkArrivals = arrivals.get('/bulk')!
  const lastArrival = Math.max(...bulkArrivals.map((arrival) => arrival.at))
  const throughput = MESSAGES / ((lastArrival - started) / 1000)

  step(`latency: an endpoint takes sign_in, during ${SECONDS} s of logins (16 connections)`)
  await register('/storm', ['sign_in'])
  // The hub trusts its copy of the subscriptions for 5 s at most: let every instance see the new one.
  await new Promise((resolve) => setTimeout(resolve, 5500))
  const storm = await wrk(`${base}/api/auth/login`, { connections: 16, seconds: SECONDS, login: seededLogins(PASSWORD) })
  // Done once no message has arrived for 2 s.
  let seen = -1
  await until(() => {
    const now = arrivals.get('/storm')?.length ?? 0
    const settled = now === seen
    seen = now
    return settled
  }, 120_000, 2000)
  const latencies = arrivals.get('/storm')!.map((arrival) => arrival.at - arrival.eventAt).sort((a, b) => a - b)
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!

  console.log(`\nbench:webhooks ${variant}: NODE_ENV=production, ${findVariant(variant).redis ? 'BullMQ on Redis' : 'the in-process queue'}, an https receiver on this machine answering 200 at once`)
  console.log(`test messages queued by 20 connections: ${fmt(MESSAGES)} in ${ms(queuedIn)} (${fmt(MESSAGES / (queuedIn / 1000))} requests/s)`)
  console.log(`delivered: ${fmt(bulkArrivals.length)} messages (${fmt(new Set(bulkArrivals.map((arrival) => arrival.id)).size)} distinct webhook-ids), ${fmt(throughput)} messages/s from the first request to the last arrival`)
  console.log(`login storm: ${fmt(storm.okRps)} successful logins/s for ${SECONDS} s; ${fmt(latencies.length)} sign_in messages arrived`)
  console.log(`event → delivery during the storm: p50 ${ms(at(0.5))}, p99 ${ms(at(0.99))}, max ${ms(latencies.at(-1)!)}`)
} finally {
  killServers()
  receiver.close()
  await database?.drop().catch((error: Error) => console.log(`could not drop the database: ${error.message}`))
  if (values.keep) console.log(`kept ${root}`)
  else rmSync(root, { recursive: true, force: true })
}

async function until(check: () => boolean, limitMs: number, everyMs = 50): Promise<void> {
  const deadline = Date.now() + limitMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${limitMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}

function step(message: string) {
  console.log(`\n━━ ${message}`)
}
