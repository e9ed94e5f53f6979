import type { Express } from 'express'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { defaultRateLimits } from '../src/config/rate-limits.js'
import type { AppContext } from '../src/context.js'
import { OutboxJob } from '../src/models/index.js'
import { jar } from './helpers/cookies.js'
import { mailTo, type ReceivedMail } from './helpers/mail.js'
import { within } from './helpers/requests.js'
import { login, makeUser, PASSWORD, useTestApps, withCookies } from './helpers/test-app.js'

/** The third security audit's findings, each replayed through real HTTP, database and SMTP. */
const t = useTestApps()

let app: Express
let ctx: AppContext
beforeAll(async () => {
  ;({ app, ctx } = await t.build({ auth: { requireEmailVerification: true } }))
})

/** Waits until every job the app queued is done, so what the SMTP server holds is all there will be. */
async function jobsDone(of = ctx): Promise<void> {
  await within(10_000, async () => (await OutboxJob.count({ where: { queue: of.keyPrefix, finishedAt: null, failedAt: null } })) === 0)
}

async function mailsTo(email: string, subject: string, of = ctx): Promise<ReceivedMail[]> {
  await jobsDone(of)
  return (await t.mailServer()).received.filter((mail) => mailTo(email)(mail) && mail.subject === subject)
}

describe('INFO: the Device: line of notices is free text taken from the User-Agent', () => {
  it.each(['Mozilla/5.0 (this was us, no action needed)', 'this was us, no action needed/1.0 (X11; Linux x86_64)'])(
    'a User-Agent of %j gives a notice whose Device line says none of it',
    async (agent) => {
      const user = await makeUser()
      const { cookies } = await login(app, user.email)
      await supertest(app)
        .put('/api/account/password')
        .set(withCookies(cookies))
        .set('User-Agent', agent)
        .send({ current_password: PASSWORD, password: 'the new secret' })
        .expect(200)
      const [notice] = await mailsTo(user.email, 'Your password was changed')
      const device = /^Device: (.*)$/m.exec(notice!.body)![1]!.trim()
      expect(device).not.toMatch(/this was us|no action|Mozilla/i)
      expect(['Unknown device', 'Linux']).toContain(device)
    },
  )

  it('the activity page shows no agent text either', async () => {
    const user = await makeUser()
    const agent = 'Mozilla/5.0 (this was us, no action needed)'
    const res = await supertest(app).post('/api/auth/login').set('User-Agent', agent).send({ email: user.email, password: PASSWORD }).expect(200)
    const cookies = jar(res)
    const activity = await supertest(app).get('/api/account/activity').set(withCookies(cookies)).expect(200)
    const devices = (activity.body.data.data as Array<{ device: string }>).map((event) => event.device)
    expect(devices.length).toBeGreaterThan(0)
    for (const device of devices) expect(device).toBe('Unknown device')
  })
})

describe('LOW: each address can be mailed 15 times a minute with no longer window, and anyone can keep its owner at 429', () => {
  const from = (target: Express, ip: string, route: string, email: string) =>
    supertest(target).post(`/api/auth/${route}`).set('X-Forwarded-For', ip).send({ email })

  it.each(['forgot-password', 'resend-verification'])('%s: a stranger who used up his quota for the owner\'s address does not block her own request', async (route) => {
    const { app: proxied } = await t.build({ env: { TRUST_PROXY: '1' } })
    const owner = await makeUser()
    const stranger = '198.51.100.66'
    let throttled = false
    for (let i = 0; i < 20 && !throttled; i++) throttled = (await from(proxied, stranger, route, owner.email)).status === 429
    expect(throttled, 'the stranger is throttled').toBe(true)
    await from(proxied, '203.0.113.7', route, owner.email).expect(200)
  })

  it.each(['forgot-password', 'resend-verification', 'register'])('%s: an address is mailed a bounded number of times an hour from one client, not only a minute', async (route) => {
    const { app: limited } = await t.build({
      auth: { requireEmailVerification: true },
      rateLimits: { mailPerEmailIp: { limit: 100, windowMs: 60_000 }, registerPerEmailIp: { limit: 100, windowMs: 60_000 }, mailPerEmailIpHourly: { limit: 3, windowMs: 3_600_000 }, registerPerEmailIpHourly: { limit: 3, windowMs: 3_600_000 } },
    })
    const email = (await makeUser()).email
    const send = () => supertest(limited).post(`/api/auth/${route}`).send({ email, name: 'R', password: 'long enough password' })
    for (let i = 0; i < 3; i++) expect((await send()).status).toBeLessThan(300)
    const res = await send()
    expect(res.status).toBe(429)
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(60)
  })

  it('the defaults: 5 a minute and 10 an hour per address and client, besides the per-IP limit', () => {
    expect(defaultRateLimits.mailPerEmailIp).toEqual({ limit: 5, windowMs: 60_000 })
    expect(defaultRateLimits.mailPerEmailIpHourly).toEqual({ limit: 10, windowMs: 3_600_000 })
    expect(defaultRateLimits.mailPerIp.windowMs).toBe(60_000)
  })
})
