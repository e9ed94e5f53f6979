import { randomUUID } from 'node:crypto'
import supertest from 'supertest'
import { describe, expect, inject, it } from 'vitest'
import { defaultRateLimits } from '../src/kernel/config/rate-limits.js'
import { features } from '../src/features/index.js'
import { jobsDone } from './helpers/jobs.js'
import { mailTo } from './helpers/mail.js'
import { login, makeUser, PASSWORD, redisLabel, redisUrl, uniqueEmail, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

/**
 * An address is mailed a bounded number of times whoever asks, from wherever: the per-client
 * limits let many clients each mail it a few times. Past the cap the routes answer exactly as
 * before (nothing tells a capped address apart), and no mail is queued.
 */
const t = useTestApps()
const proxied = { TRUST_PROXY: 'true' }
let ip = 0
const from = () => `198.51.100.${(ip = (ip % 250) + 1)}`

/** The 14 requests of the report: forgot ×5, resend ×5, register ×4, each from another client. */
const barrage = (email: string) => [
  ...Array.from({ length: 5 }, () => ['/api/auth/forgot-password', { email }] as const),
  ...Array.from({ length: 5 }, () => ['/api/auth/resend-verification', { email }] as const),
  ...Array.from({ length: 4 }, () => ['/api/auth/register', { name: 'Someone', email, password: 'a fine fresh secret' }] as const),
]

async function answersTo(app: TestApp['app'], email: string) {
  const answers: Array<{ status: number; body: unknown }> = []
  for (const [path, body] of barrage(email)) {
    const res = await supertest(app).post(path).set('X-Forwarded-For', from()).send(body)
    answers.push({ status: res.status, body: res.body })
  }
  return answers
}

/** Every queued job done, and a moment for the SMTP server to file what it got. */
async function settled(ctx: TestApp['ctx']) {
  await jobsDone(ctx)
  await new Promise((resolve) => setTimeout(resolve, 200))
}

describe('mail per address, across clients and routes', () => {
  it('defaults: 3 in 10 minutes and 5 an hour', () => {
    const limits = defaultRateLimits(features)
    expect(limits.mailPerAddress).toEqual({ limit: 3, windowMs: 10 * 60_000 })
    expect(limits.mailPerAddressHourly).toEqual({ limit: 5, windowMs: 60 * 60_000 })
  })

  it('14 requests from 14 clients mail an account at most 3 times, and every answer is the uncapped one', async () => {
    const { app, ctx } = await t.build({ auth: { requireEmailVerification: true }, env: proxied })
    const mail = await t.mailServer()
    const capped = await makeUser({ verified: false })
    const answers = await answersTo(app, capped.email)
    await settled(ctx)
    expect(mail.received.filter(mailTo(capped.email)).length).toBe(3)

    // The same requests for an address that was never capped: the same statuses and bodies.
    const { app: fresh } = await t.build({ auth: { requireEmailVerification: true }, env: proxied, rateLimits: { mailPerAddress: { limit: 100, windowMs: 60_000 }, mailPerAddressHourly: { limit: 100, windowMs: 60_000 } } })
    const uncapped = await makeUser({ verified: false })
    expect(await answersTo(fresh, uncapped.email)).toEqual(answers)
    expect(answers.map((answer) => answer.status)).toEqual([...Array(10).fill(200), ...Array(4).fill(202)])
  })

  it('an address nobody has is capped alike (the answers are the same as for an account)', async () => {
    const { app } = await t.build({ auth: { requireEmailVerification: true }, env: proxied })
    const { app: other } = await t.build({ auth: { requireEmailVerification: true }, env: proxied })
    const user = await makeUser({ verified: false })
    expect(await answersTo(app, uniqueEmail('nobody'))).toEqual(await answersTo(other, user.email))
  })

  it('an e-mail change to an address that was mailed enough is accepted as usual, and mails it nothing', async () => {
    const { app, ctx } = await t.build({ env: proxied, rateLimits: { mailPerAddress: { limit: 1, windowMs: 60_000 } } })
    const mail = await t.mailServer()
    const target = uniqueEmail('target')
    await supertest(app).post('/api/auth/forgot-password').set('X-Forwarded-For', from()).send({ email: target }).expect(200)
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const res = await supertest(app).post('/api/account/email').set(withCookies(cookies)).send({ email: target, password: PASSWORD })
    expect(res.status).toBe(200)
    await settled(ctx)
    expect(mail.received.filter(mailTo(target))).toEqual([])
  })

  it('an hour allows 5', async () => {
    const minute = { mailPerAddress: { limit: 100, windowMs: 60_000 } }
    const { app, ctx } = await t.build({ env: proxied, rateLimits: minute })
    const mail = await t.mailServer()
    const user = await makeUser()
    for (let i = 0; i < 8; i++) await supertest(app).post('/api/auth/forgot-password').set('X-Forwarded-For', from()).send({ email: user.email }).expect(200)
    await settled(ctx)
    expect(mail.received.filter(mailTo(user.email)).length).toBe(5)
  })
})

describe.skipIf(!redisUrl)(`the cap through Redis${redisLabel}`, () => {
  it('two instances count an address together', async () => {
    const shared = `${inject('keyPrefix')}${randomUUID().slice(0, 8)}:`
    const a = await t.build({ redis: true, keyPrefix: shared, env: proxied })
    const b = await t.build({ redis: true, keyPrefix: shared, env: proxied })
    const mail = await t.mailServer()
    const user = await makeUser()
    for (const instance of [a, b, a, b, a]) {
      await supertest(instance.app).post('/api/auth/forgot-password').set('X-Forwarded-For', from()).send({ email: user.email }).expect(200)
    }
    await settled(a.ctx)
    await settled(b.ctx)
    expect(mail.received.filter(mailTo(user.email)).length).toBe(3)
  })
})
