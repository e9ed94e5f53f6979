import supertest from 'supertest'
import { describe, expect, it } from 'vitest'
import { EASY_CAP, capToken } from './helpers/captcha.js'
import { PASSWORD, makeUser, redisLabel, redisUrl, useTestApps } from './helpers/test-app.js'

const t = useTestApps()

// Each request says which client it is (TRUST_PROXY), so that a test can be two IPs at once.
const env = { ...EASY_CAP, TRUST_PROXY: '1' }
const login = (app: Parameters<typeof supertest>[0], email: string, password: string, ip: string, captcha?: string) =>
  supertest(app).post('/api/auth/login').set('X-Forwarded-For', ip).send({ email, password, ...(captcha ? { captcha } : {}) })
const asked = (res: supertest.Response) => res.status === 422 && res.body.errors?.captcha !== undefined

describe.each([false, true])('login asks for a CAPTCHA only after 3 failures (Redis: %s)', (redis) => {
  describe.skipIf(redis && !redisUrl)(redis ? `with Redis${redisLabel}` : 'without Redis', () => {
    it('for an address: the fourth attempt, even with the right password, needs an answer; from another IP too', async () => {
      const { app } = await t.build({ redis, env })
      const user = await makeUser()
      expect((await login(app, user.email, PASSWORD, '203.0.113.1')).status).toBe(200)
      for (let i = 0; i < 3; i++) {
        const res = await login(app, user.email, 'wrong password', `203.0.113.${10 + i}`)
        expect(res.status).toBe(422)
        expect(res.body.errors.captcha).toBeUndefined()
      }
      expect(asked(await login(app, user.email, PASSWORD, '203.0.113.20'))).toBe(true)
      expect(asked(await login(app, user.email, PASSWORD, '203.0.113.21', 'not:a-token'))).toBe(true)
      expect((await login(app, user.email, PASSWORD, '203.0.113.22', await capToken(app))).status).toBe(200)
      // The right password forgave the address: its next attempt asks nothing.
      expect((await login(app, user.email, PASSWORD, '203.0.113.23')).status).toBe(200)
    })

    it('for an IP: after 3 failures on any addresses, the next address from it is asked; other IPs are not', async () => {
      const { app } = await t.build({ redis, env })
      const users = await Promise.all([0, 1, 2, 3].map(() => makeUser()))
      for (const user of users.slice(0, 3)) expect(asked(await login(app, user.email, 'wrong password', '198.51.100.7'))).toBe(false)
      const next = users[3]!
      expect(asked(await login(app, next.email, PASSWORD, '198.51.100.7'))).toBe(true)
      expect((await login(app, next.email, PASSWORD, '198.51.100.8')).status).toBe(200)
      expect((await login(app, next.email, PASSWORD, '198.51.100.7', await capToken(app))).status).toBe(200)
    })

    it('for an IP: logins in flight together from one address are not asked, however many', async () => {
      const { app } = await t.build({ redis, env })
      const users = await Promise.all(Array.from({ length: 8 }, () => makeUser()))
      const answers = await Promise.all(users.map((user) => login(app, user.email, PASSWORD, '198.51.100.9')))
      expect(answers.map((res) => res.status)).toEqual(users.map(() => 200))
    })
  })
})

describe('the login window', () => {
  it('RATE_LIMIT_CAPTCHA_LOGIN_FAILURES sets how many failures pass unasked', async () => {
    const { app } = await t.build({ env: { ...env, RATE_LIMIT_CAPTCHA_LOGIN_FAILURES: '1' } })
    const user = await makeUser()
    expect(asked(await login(app, user.email, 'wrong password', '192.0.2.1'))).toBe(false)
    expect(asked(await login(app, user.email, PASSWORD, '192.0.2.2'))).toBe(true)
  })
})
