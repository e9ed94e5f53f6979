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

  it('sends the OWASP REST security headers, and no ETag', async () => {
    const { app } = await t.build()
    const res = await supertest(app).get('/api/health')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'")
    expect(res.headers['x-frame-options']).toBe('DENY')
    expect(res.headers['referrer-policy']).toBe('no-referrer')
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin')
    expect(res.headers['x-powered-by']).toBeUndefined()
    expect(res.headers.etag).toBeUndefined()
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
