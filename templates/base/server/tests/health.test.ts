import supertest from 'supertest'
import { describe, expect, it } from 'vitest'
import { redisLabel, redisUrl, useTestApps } from './helpers/test-app.js'

const t = useTestApps()

describe('GET /api/health', () => {
  it('200 with db ok and redis disabled without Redis', async () => {
    const { app } = await t.build()
    const res = await supertest(app).get('/api/health')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'ok', db: 'ok', redis: 'disabled' })
  })

  it('sends the security headers', async () => {
    const { app } = await t.build()
    const res = await supertest(app).get('/api/health')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['content-security-policy']).toContain("default-src 'self'")
    expect(res.headers['x-powered-by']).toBeUndefined()
  })

  it.skipIf(!redisUrl)(`200 with redis ok, 503 once Redis is gone${redisLabel}`, async () => {
    const { app, config } = await t.build({ redis: true })
    expect((await supertest(app).get('/api/health')).body).toEqual({ status: 'ok', db: 'ok', redis: 'ok' })
    config.redis!.disconnect()
    const res = await supertest(app).get('/api/health')
    expect(res.status).toBe(503)
    expect(res.body).toEqual({ status: 'error', db: 'ok', redis: 'error' })
  })
})
