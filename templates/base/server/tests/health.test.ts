import supertest from 'supertest'
import { describe, expect, it } from 'vitest'
import { useSpecifiedBcryptCost } from './helpers/bcrypt-cost.js'
import { login, makeUser, redisLabel, redisUrl, useTestApps, withCookies } from './helpers/test-app.js'

const t = useTestApps()
// The flood of failed logins must keep bcrypt as busy as in production.
useSpecifiedBcryptCost()

describe('GET /api/health', () => {
  it('200 with db ok and redis disabled without Redis', async () => {
    const { app } = await t.build()
    const res = await supertest(app).get('/api/health')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'ok', db: 'ok', redis: 'disabled' })
  })

  it('names the instance in X-Instance-Id when INSTANCE_ID is set, and not otherwise', async () => {
    const named = await t.build({ env: { INSTANCE_ID: 'web-1' } })
    expect((await supertest(named.app).get('/api/health')).headers['x-instance-id']).toBe('web-1')
    expect((await supertest(named.app).get('/nowhere')).headers['x-instance-id']).toBe('web-1')
    const plain = await t.build()
    expect((await supertest(plain.app).get('/api/health')).headers['x-instance-id']).toBeUndefined()
  })

  it('sends the OWASP REST security headers, and no ETag, on /me (mounted ahead of the API router) as elsewhere', async () => {
    const { app } = await t.build()
    const { cookies } = await login(app, (await makeUser()).email)
    const answers = [
      await supertest(app).get('/api/health'),
      await supertest(app).get('/api/auth/me').set(withCookies(cookies)),
      await supertest(app).get('/api/auth/me'),
    ]
    expect(answers.map((res) => res.status)).toEqual([200, 200, 401])
    for (const res of answers) {
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'")
      expect(res.headers['x-frame-options']).toBe('DENY')
      expect(res.headers['referrer-policy']).toBe('no-referrer')
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin')
      expect(res.headers['x-powered-by']).toBeUndefined()
      expect(res.headers.etag).toBeUndefined()
    }
  })

  it('stays ok while a flood of failed logins keeps bcrypt busy: a slow probe is not a dead database', async () => {
    const { app } = await t.build({ env: { TRUST_PROXY: 'true' } })
    // 64 failed logins from 5 IPs, each IP under its limit, 16 in flight at a time: the hashing
    // threads stay saturated for a few seconds, long enough for dozens of probes.
    const attempts = Array.from({ length: 64 }, (_, i) => i)
    let flooding = true
    const flood = (async () => {
      const workers = Array.from({ length: 16 }, async () => {
        for (let i = attempts.shift(); i !== undefined; i = attempts.shift()) {
          const res = await supertest(app)
            .post('/api/auth/login')
            .set('X-Forwarded-For', `203.0.113.${i % 5}`)
            .send({ email: `flood-${i}@example.test`, password: 'wrong password' })
          expect(res.status).toBe(422)
        }
      })
      await Promise.all(workers)
      flooding = false
    })()
    const probes: Array<{ status: number; body: unknown; ms: number }> = []
    while (flooding) {
      const started = performance.now()
      const res = await supertest(app).get('/api/health')
      probes.push({ status: res.status, body: res.body, ms: performance.now() - started })
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await flood
    expect(probes.length).toBeGreaterThan(5)
    for (const probe of probes) expect(probe).toMatchObject({ status: 200, body: { status: 'ok', db: 'ok' } })
    console.log(`health during 64 failed logins: ${probes.length} probes, slowest ${Math.max(...probes.map((p) => p.ms)).toFixed(0)} ms`)
  }, 60_000)

  it.skipIf(!redisUrl)(`200 with redis ok, 503 once Redis is gone${redisLabel}`, async () => {
    const { app, ctx } = await t.build({ redis: true })
    expect((await supertest(app).get('/api/health')).body).toEqual({ status: 'ok', db: 'ok', redis: 'ok' })
    ctx.redis!.disconnect()
    const res = await supertest(app).get('/api/health')
    expect(res.status).toBe(503)
    expect(res.body).toEqual({ status: 'error', db: 'ok', redis: 'error' })
  })
})
