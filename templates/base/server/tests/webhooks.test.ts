import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Express } from 'express'
import { Webhook } from 'standardwebhooks'
import supertest from 'supertest'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { Op } from 'sequelize'
import type { AppContext } from '../src/kernel/context.js'
import { SecurityEvent, User, WebhookDelivery, WebhookEndpoint } from '../src/kernel/models/index.js'
import { recordCredentialEvent } from '../src/kernel/security/credential-events.js'
import type { CredentialEventKind } from '../src/kernel/security/events.js'
import type { Resolver } from '../src/kernel/webhooks/address-guard.js'
import { DELIVERY_LOG_DAYS, pruneWebhookDeliveries } from '../src/kernel/webhooks/prune.js'
import { linkIn, mailTo } from './helpers/mail.js'
import { within } from './helpers/requests.js'
import { login, makeUser, PASSWORD, redisLabel, redisUrl, uniqueEmail, useTestApps, withCookies, type Session } from './helpers/test-app.js'

const t = useTestApps()

/**
 * Test-only: retries from 50 ms apart instead of a day's back-off, so "down for a minute" takes a
 * moment. Attempts last about 8 s in all: a receiver down for a while must outlast no test's wait
 * (with 6 attempts, one delivery was given up in CI before the test had sent the next).
 */
const TEST_ONLY_SHORT_BACKOFF = { attempts: 20, backoffMs: 50, maxBackoffMs: 500 }

/** Test-only: the breaker opens as it does in production, but pauses for 2 s instead of a minute. */
const TEST_ONLY_SHORT_PAUSES = { failures: 5, pauseMs: 2000, maxPauseMs: 4000 }

interface Received {
  path: string
  headers: http.IncomingHttpHeaders
  body: string
}

/**
 * A real receiver on this machine: answers by path (`/ok`, `/flaky`: 500, 500, 200; `/hang`, and
 * a path in `muted` while it is: never).
 */
class Receiver {
  readonly received: Received[] = []
  readonly muted = new Set<string>()
  private readonly sockets = new Set<Socket>()
  /** Answers so far, by path. */
  private readonly answered = new Map<string, number>()
  server!: http.Server
  port = 0

  async start(port = 0): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        const path = req.url ?? '/'
        this.received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
        if (path.startsWith('/hang') || this.muted.has(path)) return
        const count = this.answered.get(path) ?? 0
        this.answered.set(path, count + 1)
        const status = path.startsWith('/flaky') && count < 2 ? 500 : 200
        res.writeHead(status).end()
      })
    })
    this.server.on('connection', (socket) => {
      this.sockets.add(socket)
      socket.on('close', () => this.sockets.delete(socket))
    })
    this.server.listen(port, '127.0.0.1')
    await once(this.server, 'listening')
    this.port = (this.server.address() as AddressInfo).port
    return this
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`
  }

  at(path: string): Received[] {
    return this.received.filter((entry) => entry.path === path)
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy()
    this.server.close()
    await once(this.server, 'close')
  }
}

const verify = (secret: string, entry: Received) =>
  new Webhook(secret).verify(entry.body, entry.headers as Record<string, string>) as { type: string; timestamp: string; data: Record<string, unknown> }

async function adminOf(app: Express): Promise<Session> {
  return login(app, (await makeUser({ role: 'admin' })).email)
}

const api = (app: Express, session: Session) => ({
  create: (body: object) => supertest(app).post('/api/webhooks').set(withCookies(session.cookies)).send(body),
  list: () => supertest(app).get('/api/webhooks').set(withCookies(session.cookies)),
  update: (id: number, body: object) => supertest(app).patch(`/api/webhooks/${id}`).set(withCookies(session.cookies)).send(body),
  remove: (id: number) => supertest(app).delete(`/api/webhooks/${id}`).set(withCookies(session.cookies)),
  deliveries: (id: number, query = '') => supertest(app).get(`/api/webhooks/${id}/deliveries${query}`).set(withCookies(session.cookies)),
  test: (id: number) => supertest(app).post(`/api/webhooks/${id}/test`).set(withCookies(session.cookies)),
})

async function register(app: Express, session: Session, url: string, events: string[] = ['*']): Promise<{ id: number; secret: string }> {
  const res = await api(app, session).create({ url, events })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return { id: res.body.webhook.id as number, secret: res.body.webhook.secret as string }
}

const deliveryDone = (id: number) => within(10_000, async () => ['delivered', 'failed'].includes((await WebhookDelivery.findByPk(id))?.status ?? ''))

let receiver: Receiver
/** The file's app on the in-process queue, allowed to reach this machine. */
let local: { app: Express; ctx: AppContext; admin: Session }

beforeAll(async () => {
  receiver = await new Receiver().start()
  // Registration signs in at once here, whatever the variant: its user.created and sign_in are the point.
  const { app, ctx } = await t.build({ auth: { requireEmailVerification: false }, env: { WEBHOOK_ALLOW_PRIVATE: 'on' }, webhookRetry: TEST_ONLY_SHORT_BACKOFF })
  local = { app, ctx, admin: await adminOf(app) }
})

afterEach(async () => {
  // The file's database is the next file's too: no endpoint may outlive its test.
  await WebhookDelivery.destroy({ where: {} })
  await WebhookEndpoint.destroy({ where: {} })
})

afterAll(async () => {
  await receiver.stop()
})

describe('webhook deliveries (receivers on this machine: WEBHOOK_ALLOW_PRIVATE=on)', () => {
  let app: Express
  let ctx: AppContext
  let admin: Session

  beforeAll(() => {
    ;({ app, ctx, admin } = local)
  })

  it('sends every credential event, user.created and user.deleted signed, and no body carries a secret, hash or token', async () => {
    const endpoint = await register(app, admin, receiver.url('/all'))
    const stored = await WebhookEndpoint.findByPk(endpoint.id)
    expect(endpoint.secret).toMatch(/^whsec_/)
    expect(stored!.secret).not.toContain(endpoint.secret.slice(6))

    // Real flows: a registration, a sign-in, a wrong password, a password change, a sign-out.
    const email = uniqueEmail()
    const registered = await supertest(app).post('/api/auth/register').send({ name: 'Hooked', email, password: PASSWORD })
    expect(registered.status).toBe(201)
    const user = (await User.findOne({ where: { email } }))!
    const session = await login(app, email)
    await supertest(app).post('/api/auth/login').send({ email, password: 'wrong password!' }).expect(422)
    const newPassword = 'another horse battery'
    await supertest(app).put('/api/account/password').set(withCookies(session.cookies)).send({ current_password: PASSWORD, password: newPassword }).expect(200)
    // Every other credential type of this variant (the layers' included), through the security core.
    const types = ctx.webhooks.catalogue.credentialTypes
    for (const type of types) await recordCredentialEvent(ctx, { type } as CredentialEventKind, user.id, { meta: { probe: type } })
    await supertest(app).post('/api/auth/logout').set(withCookies(session.cookies)).expect(204)
    await supertest(app).delete('/api/account').set(withCookies((await login(app, email, newPassword)).cookies)).send({ password: newPassword }).expect(204)

    const expected = new Set([...types.map((type) => ctx.webhooks.catalogue.typeOf(type)), 'user.created', 'user.deleted'])
    await within(10_000, async () => expected.size === new Set(receiver.at('/all').map((entry) => JSON.parse(entry.body).type)).size)
    const sent = receiver.at('/all').map((entry) => ({ entry, message: verify(endpoint.secret, entry) }))
    expect(new Set(sent.map(({ message }) => message.type))).toEqual(expected)
    for (const { entry, message } of sent) {
      expect(entry.headers['webhook-id']).toMatch(/^msg_/)
      expect(Object.keys(message).sort()).toEqual(['data', 'timestamp', 'type'])
    }
    const created = sent.find(({ message }) => message.type === 'user.created')!.message
    expect(created.data).toMatchObject({ user: { id: user.id, email } })

    // No secret, hash or token in any body: the endpoint's secret, the user's hashes, the session's cookies and tokens.
    const secrets = [endpoint.secret, endpoint.secret.slice(6), stored!.secret, user.password!, PASSWORD, newPassword, session.accessToken, ...Object.values(session.cookies)]
    for (const { entry } of sent) {
      for (const secret of secrets) expect(entry.body).not.toContain(secret)
      expect(entry.body).not.toMatch(/\$2[aby]\$\d\d\$|\b[0-9a-f]{64}\b|eyJ[\w-]+\.[\w-]+\.|whsec_/)
    }
  })

  it("an endpoint's creation, change and removal are the acting admin's events: activity, audit export, webhooks; never its secret", async () => {
    const before = ((await SecurityEvent.max('id')) as number | null) ?? 0
    const watcher = await register(app, admin, receiver.url('/watch'), ['webhook_endpoint_created', 'webhook_endpoint_updated', 'webhook_endpoint_deleted'])
    // A receiver's own token in its path stays out of the trail too: only the origin is kept.
    const target = await register(app, admin, receiver.url('/target/T0KEN-in-path?key=abc'), ['sign_in'])
    expect((await api(app, admin).update(target.id, { events: ['sign_out'] })).status).toBe(200)
    expect((await api(app, admin).remove(target.id)).status).toBe(204)

    const adminId = (await supertest(app).get('/api/auth/me').set(withCookies(admin.cookies))).body.user.id as number
    const rows = await SecurityEvent.findAll({ where: { id: { [Op.gt]: before }, userId: adminId, type: { [Op.like]: 'webhook_endpoint_%' } }, order: [['id', 'ASC']] })
    const origin = new URL(receiver.url('/')).origin
    expect(rows.map((row) => [row.type, JSON.parse(row.meta!)])).toEqual([
      ['webhook_endpoint_created', { endpointId: watcher.id, origin, events: ['webhook_endpoint_created', 'webhook_endpoint_updated', 'webhook_endpoint_deleted'] }],
      ['webhook_endpoint_created', { endpointId: target.id, origin, events: ['sign_in'] }],
      ['webhook_endpoint_updated', { endpointId: target.id, origin, events: ['sign_out'], changed: ['events'] }],
      ['webhook_endpoint_deleted', { endpointId: target.id, origin, events: ['sign_out'] }],
    ])
    expect(rows.every((row) => row.ip !== null)).toBe(true)

    const activity = await supertest(app).get('/api/account/activity?size=50').set(withCookies(admin.cookies))
    expect(activity.body.data.data.map((event: { type: string }) => event.type)).toEqual(expect.arrayContaining(['webhook_endpoint_created', 'webhook_endpoint_updated', 'webhook_endpoint_deleted']))
    const exported = await supertest(app).get('/api/activity/export?format=ndjson').set(withCookies(admin.cookies)).buffer(true).parse((res, done) => {
      let text = ''
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
      res.on('end', () => done(null, text))
    })
    const lines = (exported.body as string).split('\n').filter(Boolean).map((line) => JSON.parse(line) as { id: number; type: string })
    expect(lines.filter((line) => rows.some((row) => row.id === line.id)).map((line) => line.type)).toEqual(rows.map((row) => row.type))

    // The watcher hears of every change to the other endpoint (not of its own creation, which it did not take yet).
    await within(10_000, async () => receiver.at('/watch').length === 3)
    const heard = receiver.at('/watch').map((entry) => verify(watcher.secret, entry))
    expect(heard.map((message) => message.type)).toEqual(['webhook_endpoint_created', 'webhook_endpoint_updated', 'webhook_endpoint_deleted'])
    for (const message of heard) expect(message.data).toMatchObject({ userId: adminId, meta: { origin } })
    const trail = JSON.stringify([rows.map((row) => row.meta), lines, receiver.at('/watch').map((entry) => entry.body)])
    for (const secret of [watcher.secret, target.secret, 'T0KEN', 'key=abc']) expect(trail).not.toContain(secret)
    expect(trail).not.toContain('whsec_')
  })

  it('a receiver that hangs holds no request of the app, nor another endpoint\'s delivery', async () => {
    await register(app, admin, receiver.url('/hang'), ['sign_in'])
    await register(app, admin, receiver.url('/fine'), ['sign_in'])
    const user = await makeUser()
    const started = Date.now()
    await login(app, user.email)
    await within(4000, async () => receiver.at('/hang').length === 1 && receiver.at('/fine').length === 1)
    // The hanging attempt is still open (its 5 s budget runs on), and the app answers at once.
    const again = Date.now()
    await login(app, user.email)
    await supertest(app).get('/api/health').expect(200)
    expect(Date.now() - again).toBeLessThan(2000)
    await within(4000, async () => receiver.at('/fine').length === 2)
    expect(Date.now() - started).toBeLessThan(4500)
  })
})

describe.each([
  { driver: 'in-process queue', redis: false },
  { driver: `BullMQ on Redis${redisLabel}`, redis: true },
])('retries with back-off: $driver', ({ redis }) => {
  let app: Express
  let admin: Session

  beforeAll(async () => {
    if (redis && !redisUrl) return
    // Short pauses: a receiver that refuses every attempt opens the breaker, whose real first
    // pause (a minute) would outlast the test.
    ;({ app } = await t.build({ redis, env: { WEBHOOK_ALLOW_PRIVATE: 'on' }, webhookRetry: TEST_ONLY_SHORT_BACKOFF, webhookBreaker: TEST_ONLY_SHORT_PAUSES }))
    admin = await adminOf(app)
  })

  it.skipIf(redis && !redisUrl)('500, 500, 200: three attempts with the same webhook-id, then delivered', async () => {
    const path = `/flaky-${redis ? 'redis' : 'local'}`
    const endpoint = await register(app, admin, receiver.url(path))
    const res = await api(app, admin).test(endpoint.id)
    expect(res.status).toBe(202)
    await deliveryDone(res.body.delivery.id)
    const attempts = receiver.at(path)
    expect(attempts).toHaveLength(3)
    expect(new Set(attempts.map((entry) => entry.headers['webhook-id'])).size).toBe(1)
    for (const entry of attempts) expect(verify(endpoint.secret, entry).type).toBe('webhook.test')
    const log = await api(app, admin).deliveries(endpoint.id)
    expect(log.body.data).toMatchObject({ current_page: 1, total: 1, path: `/api/webhooks/${endpoint.id}/deliveries` })
    expect(log.body.data.data[0]).toEqual({
      id: res.body.delivery.id, event: 'webhook.test', status: 'delivered', attempts: 3, responseStatus: 200,
      createdAt: expect.any(String), deliveredAt: expect.any(String),
    })
  })

  it.skipIf(redis && !redisUrl)('a receiver down, then up, loses nothing', async () => {
    const later = new Receiver()
    const port = await freePort()
    const endpoint = await register(app, admin, `http://127.0.0.1:${port}/later`)
    const ids = [(await api(app, admin).test(endpoint.id)).body.delivery.id, (await api(app, admin).test(endpoint.id)).body.delivery.id] as number[]
    // Refused at least once: the receiver is down. The other may not have been tried yet: the
    // first one's quick retries can open the breaker before it (on a loaded machine), and a
    // paused endpoint's messages wait untried. The point is that nothing is lost, not how fast.
    await within(20_000, async () => (await WebhookDelivery.count({ where: { id: ids, status: 'retrying' } })) >= 1)
    await later.start(port)
    try {
      for (const id of ids) await deliveryDone(id)
      expect((await WebhookDelivery.findAll({ where: { id: ids } })).map((row) => row.status)).toEqual(['delivered', 'delivered'])
      expect(new Set(later.received.map((entry) => entry.headers['webhook-id'])).size).toBe(2)
    } finally {
      await later.stop()
    }
  }, 60_000)
})

describe.each([
  { driver: 'in-process queue', redis: false },
  { driver: `BullMQ on Redis${redisLabel}`, redis: true },
])('a receiver that never answers: $driver', ({ redis }) => {
  let app: Express
  let ctx: AppContext
  let admin: Session

  beforeAll(async () => {
    if (redis && !redisUrl) return
    // Short pauses, so that a test sees the breaker close again; its opening is the real one's.
    ;({ app, ctx } = await t.build({ redis, auth: { requireEmailVerification: false }, env: { WEBHOOK_ALLOW_PRIVATE: 'on' }, webhookRetry: TEST_ONLY_SHORT_BACKOFF, webhookBreaker: TEST_ONLY_SHORT_PAUSES }))
    admin = await adminOf(app)
  })

  it.skipIf(redis && !redisUrl)('holds back no reset mail nor another endpoint\'s message, however many of its messages wait', async () => {
    const path = `/hang-backlog-${redis ? 'redis' : 'local'}`
    const other = `/beside-backlog-${redis ? 'redis' : 'local'}`
    await register(app, admin, receiver.url(path), ['sign_in'])
    const beside = await register(app, admin, receiver.url(other), ['user.deleted'])
    // What a few hundred sign-ins leave behind for a subscribed endpoint, queued as theirs are.
    const signIns = Array.from({ length: 300 }, (_, n) => ({ timestamp: new Date(), data: { user: { id: n + 1 } } }))
    await ctx.sequelize.transaction((transaction) => ctx.webhooks.emit('sign_in', signIns, transaction))
    await within(4000, async () => receiver.at(path).length > 0)
    const user = await makeUser()
    const mail = await t.mailServer()
    const started = Date.now()
    await supertest(app).post('/api/auth/forgot-password').send({ email: user.email }).expect(200)
    linkIn(await mail.next(mailTo(user.email), 5000), 'reset-password')
    expect(Date.now() - started).toBeLessThan(5000)
    // On the same host as the silent one: its own connections, not a place behind the hanging ones.
    await api(app, admin).test(beside.id).expect(202)
    await within(2000, async () => receiver.at(other).length === 1)
  }, 30_000)

  it.skipIf(redis && !redisUrl)('pauses it after failures in a row, shows it paused, and delivers every waiting message once it answers', async () => {
    const path = `/mute-${redis ? 'redis' : 'local'}`
    receiver.muted.add(path)
    const endpoint = await register(app, admin, receiver.url(path))
    const ids: number[] = []
    for (let n = 0; n < 12; n++) ids.push((await api(app, admin).test(endpoint.id)).body.delivery.id as number)
    // Each attempt's 5 s run out: the breaker opens, and the admin sees why.
    let paused: { since: string; until: string; reason: string } | null = null
    await within(15_000, async () => {
      paused = (await api(app, admin).list()).body.data[0].paused
      return paused !== null
    })
    expect(paused).toEqual({ since: expect.any(String), until: expect.any(String), reason: 'No answer within 5 s.' })
    // While paused nothing is sent, and no waiting message uses up an attempt or is given up.
    const sentWhenPaused = receiver.at(path).length
    expect(sentWhenPaused).toBeLessThan(ids.length)
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(paused!.until) - Date.now() - 300)))
    expect(receiver.at(path)).toHaveLength(sentWhenPaused)
    expect(await WebhookDelivery.count({ where: { id: ids, status: 'failed' } })).toBe(0)

    receiver.muted.delete(path)
    await within(20_000, async () => (await WebhookDelivery.count({ where: { id: ids, status: 'delivered' } })) === ids.length)
    // Every message arrived under its own webhook-id, the one it was first sent with.
    const messageIds = (await WebhookDelivery.findAll({ where: { id: ids } })).map((row) => row.messageId)
    expect(new Set(receiver.at(path).map((entry) => entry.headers['webhook-id']))).toEqual(new Set(messageIds))
    expect((await api(app, admin).list()).body.data[0].paused).toBeNull()
  }, 60_000)
})

describe('what a webhook may reach (WEBHOOK_ALLOW_PRIVATE off)', () => {
  let app: Express
  let admin: Session
  let rebound = false
  /** Names of this test only: no DNS is asked. */
  const resolver: Resolver = async (host) => {
    if (host === 'ten.example.test') return [{ address: '10.1.2.3', family: 4 }]
    if (host === 'rebind.example.test') return [{ address: rebound ? '127.0.0.1' : '93.184.215.14', family: 4 }]
    if (host === 'public.example.test') return [{ address: '93.184.215.14', family: 4 }]
    throw new Error('ENOTFOUND')
  }

  beforeAll(async () => {
    ;({ app } = await t.build({ webhookResolver: resolver, webhookRetry: TEST_ONLY_SHORT_BACKOFF }))
    admin = await adminOf(app)
  })

  it.each([
    ['loopback', () => receiver.url('/ssrf')],
    ['metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['IPv6 loopback', () => `http://[::1]:${receiver.port}/ssrf`],
    ['IPv4-mapped IPv6', () => `http://[::ffff:127.0.0.1]:${receiver.port}/ssrf`],
    ['a name resolving to 10.x', () => 'http://ten.example.test/hook'],
    ['an unknown name', () => 'https://nowhere.example.test/hook'],
    ['a non-http scheme', () => 'ftp://public.example.test/hook'],
  ])('refuses %s at registration', async (_what, url) => {
    const res = await api(app, admin).create({ url: url(), events: ['*'] })
    expect(res.status).toBe(422)
    expect(res.body.errors.url).toHaveLength(1)
    // Words from the catalogue, not its key.
    expect(res.body.errors.url[0]).toMatch(/^The /)
  })

  it('refuses a name that answers differently at delivery (DNS rebinding)', async () => {
    rebound = false
    const endpoint = await register(app, admin, `http://rebind.example.test:${receiver.port}/rebind`)
    rebound = true
    const res = await api(app, admin).test(endpoint.id)
    await deliveryDone(res.body.delivery.id)
    const delivery = (await WebhookDelivery.findByPk(res.body.delivery.id))!
    expect(delivery.status).toBe('failed')
    expect(delivery.error).toMatch(/loopback/)
    expect(receiver.at('/rebind')).toHaveLength(0)
  })

  it('admin only, validated, the secret shown once', async () => {
    const user = await login(app, (await makeUser()).email)
    expect((await api(app, user).list()).status).toBe(403)
    expect((await api(app, user).create({ url: 'https://public.example.test/', events: ['*'] })).status).toBe(403)
    const bad = await api(app, admin).create({ url: 'not a url', events: ['nope', 'nothing_created_x'] })
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.body.errors)).toEqual(['url'])
    const unknown = await api(app, admin).create({ url: 'https://public.example.test/', events: ['sign_in', 'no_such_event'] })
    expect(unknown.status).toBe(422)
    expect(unknown.body.errors).toEqual({ 'events.1': ['"no_such_event" is not an event type this app sends.'] })
    expect((await api(app, admin).create({ url: 'https://public.example.test/', events: [] })).status).toBe(422)

    const endpoint = await register(app, admin, 'https://public.example.test/hook', ['sign_in', 'user.*'])
    const list = await api(app, admin).list()
    expect(list.body.data).toEqual([{ id: endpoint.id, url: 'https://public.example.test/hook', events: ['sign_in', 'user.*'], paused: null, createdAt: expect.any(String), updatedAt: expect.any(String) }])
    expect(list.body.events).toContain('user.created')
    expect(JSON.stringify(list.body)).not.toContain('whsec_')
    // Not `*`: the endpoint's own changes are events too, and this address is not one a test may reach.
    const updated = await api(app, admin).update(endpoint.id, { events: ['user.deleted'] })
    expect(updated.body.webhook.events).toEqual(['user.deleted'])
    expect((await api(app, admin).update(endpoint.id, { url: receiver.url('/x') })).status).toBe(422)
    expect((await api(app, admin).deliveries(endpoint.id, '?size=500')).status).toBe(422)
    expect((await api(app, admin).remove(endpoint.id)).status).toBe(204)
    expect((await api(app, admin).remove(endpoint.id)).status).toBe(404)
    expect((await api(app, admin).test(999_999)).status).toBe(404)
  })
})

describe('the delivery log', () => {
  it(`keeps ${DELIVERY_LOG_DAYS} days of messages that are over, and every one still under way`, async () => {
    await t.database()
    const day = 86_400_000
    const row = (status: WebhookDelivery['status'], daysAgo: number) =>
      ({ endpointId: 1, messageId: `msg_${status}_${daysAgo}`, event: 'sign_in', payload: null, status, createdAt: new Date(Date.now() - daysAgo * day) })
    await WebhookDelivery.bulkCreate([row('delivered', 31), row('failed', 31), row('delivered', 29), row('retrying', 31)])
    await pruneWebhookDeliveries()
    expect((await WebhookDelivery.findAll({ order: [['id', 'ASC']] })).map((kept) => kept.messageId)).toEqual(['msg_delivered_29', 'msg_retrying_31'])
  })
})

async function freePort(): Promise<number> {
  const server = http.createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  server.close()
  await once(server, 'close')
  return port
}
