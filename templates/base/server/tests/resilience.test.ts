import supertest from 'supertest'
import { describe, expect, it } from 'vitest'
import { OutboxJob } from '../src/kernel/models/index.js'
import { mailTo, startMailServer } from './helpers/mail.js'
import { ownRedis, timed } from './helpers/outages.js'
import { freePort } from './helpers/processes.js'
import { within } from './helpers/requests.js'
import { login, makeUser, PASSWORD, uniqueEmail, useTestApps, withCookies } from './helpers/test-app.js'

const t = useTestApps()
/** No request waits longer than this on a dead dependency (the README's "Outages"). */
const BOUND_MS = 2000

describe('Redis down and back', () => {
  it('keeps sign-in, mail routes and access tokens working, answers 503 for guest sessions, and delivers every accepted mail once it is back', async () => {
    const redis = await ownRedis()
    const mail = await t.mailServer()
    const { app } = await t.build({ env: { REDIS_URL: redis.url }, retryBackoffMs: 100 })
    const user = await makeUser()
    const session = await login(app, user.email)
    await supertest(app).patch('/api/session').send({ theme: 'dark' }).expect(200)

    await redis.stop()
    const health = await timed(() => supertest(app).get('/api/health'))
    expect(health.res.status).toBe(503)
    expect(health.res.body).toEqual({ status: 'error', db: 'ok', redis: 'error' })
    expect(health.ms).toBeLessThan(BOUND_MS)

    const guest = await timed(() => supertest(app).get('/api/session'))
    expect(guest.res.status).toBe(503)
    expect(guest.res.body).toEqual({ message: 'Service Unavailable.' })
    expect(Number(guest.res.headers['retry-after'])).toBeGreaterThan(0)
    expect(guest.ms).toBeLessThan(BOUND_MS)
    expect((await supertest(app).patch('/api/session').send({ a: 1 })).status).toBe(503)

    const during = [
      await timed(() => supertest(app).get('/api/auth/me').set(withCookies(session.cookies))),
      await timed(() => supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD })),
      await timed(() => supertest(app).post('/api/auth/forgot-password').send({ email: user.email })),
      await timed(() => supertest(app).post('/api/auth/register').send({ name: 'During', email: uniqueEmail('outage'), password: 'password1' })),
    ]
    for (const { res, ms } of during) {
      expect(res.status).toBeLessThan(300)
      expect(ms).toBeLessThan(BOUND_MS)
    }

    // Limits still hold, per instance: 5 failed logins for one address, then 429.
    const target = uniqueEmail('limited')
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) statuses.push((await supertest(app).post('/api/auth/login').send({ email: target, password: 'wrong password' })).status)
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429])

    const stoppedFor = performance.now()
    await redis.start()
    const recovery = await within(BOUND_MS, async () => (await supertest(app).get('/api/health')).status === 200)
    const arrived = await mail.waitFor(mailTo(user.email), 10_000)
    expect(arrived.subject).toBe('Reset your password')
    // Exactly once: nothing more arrives for it.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(mail.received.filter((m) => mailTo(user.email)(m) && m.subject === 'Reset your password')).toHaveLength(1)
    console.log(
      `Redis outage: health 503 in ${health.ms.toFixed(0)} ms, guest session 503 in ${guest.ms.toFixed(0)} ms, ` +
        `login ${during[1]!.ms.toFixed(0)} ms; recovery ${recovery} ms after restart; mail delivered ${((performance.now() - stoppedFor) / 1000).toFixed(1)} s after restart, once`,
    )
    await redis.stop()
  }, 60_000)
})

describe('SMTP down and back', () => {
  it('answers as usual and delivers the mail once SMTP is back, even after every instance restarted', async () => {
    const port = await freePort()
    const first = await t.build({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` }, retryBackoffMs: 200 })
    const user = await makeUser()
    const accepted = await timed(() => supertest(first.app).post('/api/auth/forgot-password').send({ email: user.email }))
    expect(accepted.res.status).toBe(200)
    expect(accepted.ms).toBeLessThan(BOUND_MS)
    // The only instance stops before it could deliver; the job waits in the database.
    await new Promise((resolve) => setTimeout(resolve, 300))
    await first.ctx.close()
    expect(await OutboxJob.count({ where: { queue: first.ctx.keyPrefix, finishedAt: null, failedAt: null } })).toBe(1)

    const smtp = await startMailServer(port)
    try {
      // A new instance of the same app (same queue) takes the job over.
      await t.build({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` }, keyPrefix: first.ctx.keyPrefix, retryBackoffMs: 200 })
      const arrived = await smtp.waitFor(mailTo(user.email), 10_000)
      expect(arrived.subject).toBe('Reset your password')
      await new Promise((resolve) => setTimeout(resolve, 1000))
      expect(smtp.received.filter(mailTo(user.email))).toHaveLength(1)
    } finally {
      await smtp.close()
    }
  }, 30_000)
})
