/**
 * Mail under a webhook backlog: generates and builds a variant, starts the built server
 * (NODE_ENV=production, WEBHOOK_ALLOW_PRIVATE=on, PWNED_PASSWORDS=off: nothing leaves 127.0.0.1),
 * a local SMTP server (the `smtp-server` package of the apps' shared install) as its SMTP_URL,
 * and a local https receiver that takes every request and never answers (a self-signed
 * certificate made with openssl, trusted by the server through NODE_EXTRA_CA_CERTS: production
 * takes https only). Then, for `--rounds` rounds, times a password reset from its request to its
 * mail's arrival at the SMTP server:
 * - with no backlog (the usual time);
 * - asked when half the backlog below is queued, the queueing still going on;
 * - right after `--backlog` messages were queued for a fresh endpoint at the silent receiver
 *   (`POST /api/webhooks/:id/test` from 20 connections), its first attempts still hanging;
 * - once that endpoint's breaker has paused it (after its first attempts' 5 s ran out).
 * Each is a different seeded user (the per-address limit of forgot-password). The endpoint is
 * deleted after its round, and the next round waits for its messages to be dropped.
 *
 *   npm run bench:outbox -- [--variant sqlite] [--backlog 500] [--rounds 5] [--keep]
 *
 * A variant on Redis (its id says -redis) runs its jobs through BullMQ, else through the
 * in-process queue. It is a benchmark, not a test: it prints numbers and never fails on them.
 */
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import https from 'node:https'
import { createRequire } from 'node:module'
import type { AddressInfo, Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { execa } from 'execa'
import { ALL_VARIANT_IDS, variant as findVariant, variantAnswers } from '../src/variants.js'
import { freshDatabase } from './lib/database.js'
import { freePort } from './lib/ports.js'
import { fmt, ms } from './lib/report.js'
import { buildAndSeed } from './lib/seed-users.js'
import { killServers, login, startArgs, startServer } from './lib/server-process.js'
import { sharedNodeModules } from './lib/shared-install.js'

const { values } = parseArgs({
  options: {
    variant: { type: 'string', default: 'sqlite' },
    backlog: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '5' },
    keep: { type: 'boolean', default: false },
  },
})
const variant = values.variant
if (!ALL_VARIANT_IDS.includes(variant)) throw new Error(`unknown variant ${variant}; known: ${ALL_VARIANT_IDS.join(', ')}`)
const BACKLOG = Number(values.backlog)
const ROUNDS = Number(values.rounds)
// The admin, and four users a round, each asking for one reset.
const USERS = 1 + 4 * ROUNDS
const PASSWORD = 'bench password 1'
/** A reset mail that has not come by then is counted as this long, and said so. */
const MAIL_LIMIT_MS = 60_000

const answers = variantAnswers(variant)
const modules = await sharedNodeModules()
const root = mkdtempSync(join(tmpdir(), 'cca-bench-outbox-'))
const dir = join(root, variant)
const database = await freshDatabase(answers.db, `cca_bench_${randomBytes(4).toString('hex')}`)

// The SMTP server the app mails to, from the apps' own install (the generator has none).
interface SmtpSession {
  envelope: { rcptTo: { address: string }[] }
}
interface SmtpServer {
  server: { address(): AddressInfo }
  listen(port: number, host: string, callback: () => void): void
  close(): void
}
const { SMTPServer } = createRequire(join(modules, 'noop.js'))('smtp-server') as {
  SMTPServer: new (options: {
    authOptional: boolean
    disabledCommands: string[]
    logger: boolean
    onData(stream: NodeJS.ReadableStream, session: SmtpSession, callback: () => void): void
  }) => SmtpServer
}
const arrivals = new Map<string, number>()
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, session, callback) {
    stream.resume()
    stream.on('end', () => {
      for (const to of session.envelope.rcptTo) arrivals.set(to.address.toLowerCase(), Date.now())
      callback()
    })
  },
})
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
const smtpPort = (smtp.server.address() as AddressInfo).port

const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: 'production',
  DATABASE_URL: database?.url ?? `sqlite:${join(dir, 'data', 'bench.sqlite')}`,
  REDIS_URL: findVariant(variant).redis ? (process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379') : '',
  REDIS_PREFIX: `bench-${randomBytes(3).toString('hex')}:`,
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  MAIL_TRANSPORT: 'smtp',
  MAIL_FROM: 'bench@example.test',
  WEBHOOK_ALLOW_PRIVATE: 'on',
  PWNED_PASSWORDS: 'off',
}
delete env.npm_config_user_agent

// The receiver's certificate, for 127.0.0.1, trusted by the server alone.
const key = join(root, 'receiver-key.pem')
const cert = join(root, 'receiver-cert.pem')
await execa('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert])
env.NODE_EXTRA_CA_CERTS = cert

/** Takes each request whole and never answers: the sender's 5 s run out. */
let requestsSeen = 0
const sockets = new Set<Socket>()
const receiver = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req) => {
  req.resume()
  req.on('end', () => void requestsSeen++)
})
receiver.on('connection', (socket: Socket) => {
  sockets.add(socket)
  socket.on('close', () => sockets.delete(socket))
})

interface Round {
  baseline: number
  midway: number
  /** When the midway reset was asked, from the backlog's start. */
  midwayAt: number
  queuedIn: number
  backlog: number
  /** Whether the endpoint was already paused when the reset above was asked for. */
  pausedAtBacklog: boolean
  /** NaN where the app has no breaker. */
  paused: number
  pausedAfter: number
}

try {
  await buildAndSeed(variant, dir, modules, env, USERS, PASSWORD, step)
  receiver.listen(0, '127.0.0.1')
  await once(receiver, 'listening')
  const hook = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/silent`

  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  await startServer(startArgs(dir), { ...env, PORT: String(port), BASE_URL: base }, dir, port, '/api/health')
  const { cookies } = await login(base, 'user1@example.test', PASSWORD)
  const headers = { Cookie: Object.entries(cookies).map(([name, value]) => `${name}=${value}`).join('; '), Origin: base, 'Content-Type': 'application/json' }
  const api = async (method: string, path: string, body?: object) => {
    const res = await fetch(`${base}${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) })
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
    return res.status === 204 ? undefined : ((await res.json()) as Record<string, unknown>)
  }
  /** Undefined from an app without the breaker (a revision before it, for a before-and-after). */
  const pausedOf = async (id: number) => {
    const list = (await api('GET', '/api/webhooks')) as { data: { id: number; paused?: object | null }[] }
    const endpoint = list.data.find((each) => each.id === id)
    return endpoint && 'paused' in endpoint ? Boolean(endpoint.paused) : undefined
  }

  let nextUser = 2
  /** From the request to the mail's arrival. */
  const resetMail = async () => {
    const email = `user${nextUser++}@example.test`
    const started = Date.now()
    const res = await fetch(`${base}/api/auth/forgot-password`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: base }, body: JSON.stringify({ email }) })
    if (res.status !== 200) throw new Error(`forgot-password: ${res.status} ${await res.text()}`)
    await until(() => arrivals.has(email), MAIL_LIMIT_MS).catch(() => {})
    return (arrivals.get(email) ?? started + MAIL_LIMIT_MS) - started
  }

  const rounds: Round[] = []
  for (let round = 1; round <= ROUNDS; round++) {
    step(`round ${round} of ${ROUNDS}`)
    const baseline = await resetMail()
    const { webhook } = (await api('POST', '/api/webhooks', { url: hook, events: ['sign_in'] })) as { webhook: { id: number } }
    const started = Date.now()
    let next = 0
    let midway: Promise<number> | undefined
    let midwayAt = 0
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next++ < BACKLOG) {
          await api('POST', `/api/webhooks/${webhook.id}/test`)
          if (!midway && next >= BACKLOG / 2) {
            midwayAt = Date.now() - started
            midway = resetMail()
          }
        }
      }),
    )
    const queuedIn = Date.now() - started
    const breaker = await pausedOf(webhook.id)
    const backlog = await resetMail()
    let [paused, pausedAfter] = [Number.NaN, Number.NaN]
    if (breaker !== undefined) {
      await until(async () => (await pausedOf(webhook.id)) === true, 60_000, 200)
      pausedAfter = Date.now() - started
      paused = await resetMail()
    }
    rounds.push({ baseline, midway: await midway!, midwayAt, queuedIn, backlog, pausedAtBacklog: breaker === true, paused, pausedAfter })
    console.log(`no backlog ${ms(baseline)}; half queued (at ${ms(midwayAt)}) ${ms(rounds.at(-1)!.midway)}; ${fmt(BACKLOG)} queued in ${ms(queuedIn)}, then ${ms(backlog)}${breaker ? ' (already paused)' : ''}${breaker === undefined ? '' : `; paused after ${ms(pausedAfter)}, then ${ms(paused)}`}; receiver took ${fmt(requestsSeen)} requests so far`)
    await api('DELETE', `/api/webhooks/${webhook.id}`)
    // Its jobs find their rows gone and end; the next round's baseline starts without them.
    await new Promise((resolve) => setTimeout(resolve, 3000))
  }

  const median = (pick: (round: Round) => number) => {
    const sorted = rounds.map(pick).sort((a, b) => a - b)
    return sorted[Math.floor(sorted.length / 2)]!
  }
  const usual = median((round) => round.baseline)
  const line = (label: string, pick: (round: Round) => number) =>
    console.log(`${label.padEnd(44)} median ${ms(median(pick)).padStart(8)}  ×${(median(pick) / usual).toFixed(2)} the usual  (rounds: ${rounds.map((round) => ms(pick(round))).join(', ')})`)
  console.log(`\nbench:outbox ${variant}: NODE_ENV=production, ${findVariant(variant).redis ? 'BullMQ on Redis' : 'the in-process queue'}, ${ROUNDS} rounds; a reset mail from its request to its arrival at a local SMTP server`)
  console.log(`backlog: ${fmt(BACKLOG)} messages for an https receiver on this machine that never answers, queued in ${ms(median((round) => round.queuedIn))} (median)`)
  line('no backlog (the usual time)', (round) => round.baseline)
  line(`${fmt(BACKLOG / 2)} queued, queueing goes on`, (round) => round.midway)
  line(`${fmt(BACKLOG)} waiting, just queued`, (round) => round.backlog)
  if (rounds.every((round) => Number.isNaN(round.paused))) {
    console.log('this app has no webhook breaker: no endpoint is ever paused')
  } else {
    line(`${fmt(BACKLOG)} waiting, the endpoint paused`, (round) => round.paused)
    console.log(`half the backlog was queued ${ms(median((round) => round.midwayAt))} after it began (median); the breaker paused the endpoint after ${ms(median((round) => round.pausedAfter))} (median; ${rounds.filter((round) => round.pausedAtBacklog).length} of ${ROUNDS} rounds paused before the whole backlog was queued)`)
  }
  if (rounds.some((round) => round.backlog >= MAIL_LIMIT_MS || round.paused >= MAIL_LIMIT_MS)) console.log(`a mail that had not come within ${ms(MAIL_LIMIT_MS)} counts as ${ms(MAIL_LIMIT_MS)}`)
} finally {
  killServers()
  for (const socket of sockets) socket.destroy()
  receiver.close()
  smtp.close()
  await database?.drop().catch((error: Error) => console.log(`could not drop the database: ${error.message}`))
  if (values.keep) console.log(`kept ${root}`)
  else rmSync(root, { recursive: true, force: true })
}

async function until(check: () => boolean | Promise<boolean>, limitMs: number, everyMs = 5): Promise<void> {
  const deadline = Date.now() + limitMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${limitMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}

function step(message: string) {
  console.log(`\n━━ ${message}`)
}
