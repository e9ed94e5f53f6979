import supertest from 'supertest'
import { describe, expect, it } from 'vitest'
import { CaptchaEntry } from '../src/features/captcha/models/captcha-entry.js'
import { EASY_CAP, capToken, solve } from './helpers/captcha.js'
import { redisLabel, redisUrl, uniqueEmail, useTestApps } from './helpers/test-app.js'

const t = useTestApps()
const minute = 60_000

/** Cap's protocol as the widget speaks it: a challenge, solved here as the browser would, traded once for a token that passes once. */
describe.each([
  ['the database', false],
  ['Redis', true],
])('Cap, its challenges and tokens kept in %s', (_where, redis) => {
  describe.skipIf(redis && !redisUrl)(redis ? `with Redis${redisLabel}` : 'without Redis', () => {
    it('hands out a challenge by GET and by POST, at the difficulty CAPTCHA_DIFFICULTY and CAPTCHA_CHALLENGE_COUNT set', async () => {
      const { app } = await t.build({ auth: { requireEmailVerification: false }, redis, env: EASY_CAP })
      for (const method of ['get', 'post'] as const) {
        const res = await supertest(app)[method]('/api/captcha/challenge').expect(200)
        expect(res.body).toEqual({ challenge: { c: 3, s: 32, d: 1 }, token: expect.stringMatching(/^[0-9a-f]{50}$/), expires: expect.any(Number) })
        expect(res.body.expires).toBeGreaterThan(Date.now())
      }
      expect((await supertest(app).get('/api/captcha').expect(200)).body).toEqual({ provider: 'cap', siteKey: null })
    })

    it('trades a solved challenge for a token once; a wrong solution, or the same one again, is a 422', async () => {
      const { app } = await t.build({ auth: { requireEmailVerification: false }, redis, env: EASY_CAP })
      const { body: challenge } = await supertest(app).post('/api/captcha/challenge').expect(200)
      const solutions = solve(challenge.token, challenge.challenge)
      const wrong = await supertest(app).post('/api/captcha/redeem').send({ token: challenge.token, solutions: solutions.map((n) => n + 1) })
      // A wrong solution uses the challenge up too: no second guess on it.
      expect(wrong.status).toBe(422)
      expect(wrong.body.errors).toEqual({ solutions: [expect.any(String)] })
      const { body: fresh } = await supertest(app).post('/api/captcha/challenge').expect(200)
      const good = await supertest(app).post('/api/captcha/redeem').send({ token: fresh.token, solutions: solve(fresh.token, fresh.challenge) })
      expect(good.status).toBe(200)
      expect(good.body).toEqual({ success: true, token: expect.stringMatching(/^[0-9a-f]+:[0-9a-f]+$/), expires: expect.any(Number) })
      const again = await supertest(app).post('/api/captcha/redeem').send({ token: fresh.token, solutions: solve(fresh.token, fresh.challenge) })
      expect(again.status).toBe(422)
      const racing = await supertest(app).post('/api/captcha/challenge').expect(200)
      const both = await Promise.all(
        [0, 1].map(() => supertest(app).post('/api/captcha/redeem').send({ token: racing.body.token, solutions: solve(racing.body.token, racing.body.challenge) })),
      )
      expect(both.map((res) => res.status).sort()).toEqual([200, 422])
    })

    it('a token passes one request: sent again it is refused', async () => {
      const { app } = await t.build({ auth: { requireEmailVerification: false }, redis, env: EASY_CAP })
      const captcha = await capToken(app)
      const first = await supertest(app).post('/api/auth/register').send({ name: 'Ada', email: uniqueEmail(), password: 'a long new password 1', captcha })
      expect(first.status).toBe(201)
      const second = await supertest(app).post('/api/auth/register').send({ name: 'Bea', email: uniqueEmail(), password: 'a long new password 1', captcha })
      expect(second.status).toBe(422)
      expect(Object.keys(second.body.errors)).toEqual(['captcha'])
    })

    it('keeps nothing a client holds: challenges and tokens are stored under their SHA-256', async () => {
      const { app, ctx } = await t.build({ auth: { requireEmailVerification: false }, redis, env: EASY_CAP })
      const { body: challenge } = await supertest(app).post('/api/captcha/challenge').expect(200)
      const { body: redeemed } = await supertest(app).post('/api/captcha/redeem').send({ token: challenge.token, solutions: solve(challenge.token, challenge.challenge) }).expect(200)
      const [id, secret] = (redeemed.token as string).split(':')
      const stored = redis ? await ctx.redis!.keys(`${ctx.keyPrefix}captcha:*`) : (await CaptchaEntry.findAll()).map((entry) => `${entry.key} ${entry.data}`)
      expect(stored.length).toBeGreaterThan(0)
      for (const value of stored) {
        expect(value).not.toContain(challenge.token)
        expect(value).not.toContain(id)
        expect(value).not.toContain(secret)
      }
    })

    it('limits challenges and redemptions per IP (RATE_LIMIT_CAPTCHA_PER_IP)', async () => {
      const { app } = await t.build({ auth: { requireEmailVerification: false }, redis, env: EASY_CAP, rateLimits: { captchaPerIp: { limit: 2, windowMs: minute } } })
      await supertest(app).get('/api/captcha/challenge').expect(200)
      await supertest(app).post('/api/captcha/challenge').expect(200)
      const limited = await supertest(app).post('/api/captcha/redeem').send({ token: 'x', solutions: [1] })
      expect(limited.status).toBe(429)
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    })
  })
})
