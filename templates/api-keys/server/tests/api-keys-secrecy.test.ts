import { createHash } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OutboxJob, SecurityEvent, WebhookDelivery, WebhookEndpoint } from '../src/models/index.js'
import { within } from './helpers/requests.js'
import { apiKeyApi, bearer, meWith, withApiKey } from './helpers/api-keys.js'
import { login, makeUser, useTestApps, withCookies, type MemoryLogger, type TestApp } from './helpers/test-app.js'
import { ApiKey } from '../src/features/api-keys/models/api-key.js'

const t = useTestApps()

/** A webhook receiver on this machine: what the app sends is what it keeps. */
async function receiver() {
  const bodies: string[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'))
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { bodies, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, close: () => new Promise((resolve) => server.close(resolve)) }
}

describe('a key is shown once and kept nowhere: only the hash of its secret is stored', () => {
  let app: TestApp['app']
  let logger: MemoryLogger
  let hooks: Awaited<ReturnType<typeof receiver>>
  let endpointId: number
  beforeAll(async () => {
    hooks = await receiver()
    // Without SMTP the app logs each mail it saves, text included: the notices are in the log too.
    ;({ app, logger } = await t.build({ env: { WEBHOOK_ALLOW_PRIVATE: 'on' }, smtp: false }))
    const admin = await makeUser({ role: 'admin' })
    const { cookies } = await login(app, admin.email)
    const made = await supertest(app).post('/api/webhooks').set(withCookies(cookies)).send({ url: hooks.url, events: ['api_key_created', 'api_key_revoked'] })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    endpointId = made.body.webhook.id
  })
  afterAll(async () => {
    // The next file on this database must not deliver to this receiver.
    await WebhookEndpoint.destroy({ where: { id: endpointId } })
    await hooks.close()
  })

  it('the database holds the SHA-256 of the secret and the public id, never the key or the secret', async () => {
    const user = await makeUser()
    const { key, apiKey } = await withApiKey(app, user.email)
    const [, lookupId, secret] = /^cca_([A-Za-z0-9]{12})_(.+)$/.exec(key)!
    const row = await ApiKey.findByPk(apiKey.id)
    expect(row!.lookupId).toBe(lookupId)
    expect(row!.secretHash).toBe(createHash('sha256').update(secret!).digest('hex'))
    const stored = JSON.stringify(row!.get())
    expect(stored).not.toContain(secret)
    expect(stored).not.toContain(key)
  })

  it('the key is in no log line, activity row, notice or webhook message, across its whole life', async () => {
    const user = await makeUser()
    const { key, cookies, apiKey } = await withApiKey(app, user.email, { name: 'Billing sync' })
    const secret = key.split('_').slice(2).join('_')
    // Used, used wrongly, renamed and revoked: every path that could write it somewhere.
    expect((await meWith(app, key)).status).toBe(200)
    expect((await supertest(app).get('/api/nowhere').set(bearer(key))).status).toBe(404)
    expect((await meWith(app, `${key}x`)).status).toBe(401)
    expect((await apiKeyApi(app, cookies).rename(apiKey.id, { name: 'Billing' })).status).toBe(200)
    expect((await apiKeyApi(app, cookies).revoke(apiKey.id)).status).toBe(204)
    expect((await meWith(app, key)).status).toBe(401)

    // The events are there, naming the key by name and prefix only.
    const events = await SecurityEvent.findAll({ where: { userId: user.id }, order: [['id', 'ASC']] })
    const ofKeys = events.filter((event) => event.type.startsWith('api_key_'))
    expect(ofKeys.map((event) => [event.type, JSON.parse(event.meta!)])).toEqual([
      ['api_key_created', { name: 'Billing sync', prefix: apiKey.prefix }],
      ['api_key_revoked', { name: 'Billing', prefix: apiKey.prefix }],
    ])
    // The owner is told of the new key (the mail is in the log); it names no key.
    await within(10_000, async () => logger.lines.some((line) => line.includes(user.email) && line.includes('An API key was made for your account')))
    // Both webhook messages arrive, with the prefix and without the key.
    await within(10_000, async () => hooks.bodies.filter((body) => body.includes(apiKey.prefix)).length === 2)
    const sent = hooks.bodies.filter((body) => body.includes(apiKey.prefix)).map((body) => JSON.parse(body) as { type: string; data: { userId: number; meta: object } })
    expect(sent.map((message) => [message.type, message.data.userId, message.data.meta]).sort()).toEqual([
      ['api_key_created', user.id, { name: 'Billing sync', prefix: apiKey.prefix }],
      ['api_key_revoked', user.id, { name: 'Billing', prefix: apiKey.prefix }],
    ])

    const deliveries = await WebhookDelivery.findAll({ where: { endpointId } })
    const jobs = await OutboxJob.findAll()
    const everywhere = JSON.stringify([logger.lines, events.map((event) => event.get()), hooks.bodies, deliveries.map((row) => row.get()), jobs.map((row) => row.get())])
    expect(everywhere).toContain(apiKey.prefix)
    expect(everywhere).not.toContain(secret)
    expect(everywhere).not.toContain(key)
  })
})
