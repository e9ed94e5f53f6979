import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { makeUser, PASSWORD, uniqueEmail, useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
const relaxed = {
  registerPerIp: { limit: 1000, windowMs: 60_000 },
  mailPerIp: { limit: 1000, windowMs: 60_000 },
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

/**
 * Which addresses have accounts must not show in status, body or time. Bodies are compared
 * after removing what differs by nature (ids and timestamps of a registration).
 */
describe('no account enumeration (verification on)', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build({ auth: { requireEmailVerification: true }, rateLimits: relaxed }))
  })

  const cases: Array<[string, (email: string) => supertest.Test]> = [
    ['forgot-password', (email) => supertest(app).post('/api/auth/forgot-password').send({ email })],
    ['resend-verification', (email) => supertest(app).post('/api/auth/resend-verification').send({ email })],
    ['register', (email) => supertest(app).post('/api/auth/register').send({ name: 'Same Name', email, password: PASSWORD })],
  ]

  it.each(cases)('%s: same status, same body shape, similar time for existing and unknown e-mails', async (_route, send) => {
    const shape = (body: Record<string, unknown>) => JSON.stringify(body, (key, value) => (['id', 'email', 'createdAt', 'updatedAt'].includes(key) ? typeof value : value))
    const existing: number[] = []
    const unknown: number[] = []
    const bodies = new Set<string>()
    const statuses = new Set<number>()
    for (let i = 0; i < 5; i++) {
      for (const [email, times] of [[(await makeUser({ verified: i % 2 === 0 })).email, existing], [uniqueEmail('unknown'), unknown]] as const) {
        const start = performance.now()
        const res = await send(email)
        times.push(performance.now() - start)
        statuses.add(res.status)
        bodies.add(shape(res.body))
      }
    }
    expect([...statuses]).toHaveLength(1)
    expect(bodies.size).toBe(1)
    // Noise on a busy machine grows with the request's own cost (bcrypt for register).
    const [a, b] = [median(existing), median(unknown)]
    expect(Math.abs(a - b)).toBeLessThan(Math.max(25, 0.4 * Math.max(a, b)))
  })
})
