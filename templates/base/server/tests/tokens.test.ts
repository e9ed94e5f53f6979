import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import supertest from 'supertest'
import { describe, expect, it } from 'vitest'
import { login, makeUser, names, useTestApps, withCookies } from './helpers/test-app.js'

const t = useTestApps()

// kernel/auth/tokens.ts remembers the claims of tokens that verified: these rules must hold all the same.
describe('verified access tokens', () => {
  it('still expire after they were accepted', async () => {
    // Two seconds, not one: `exp` counts whole seconds from the login's second, so a one-second
    // token issued late in its second could expire before the first request below.
    const { app } = await t.build({ auth: { accessExpirySeconds: 2 } })
    const { cookies } = await login(app, (await makeUser()).email)
    const accessOnly = { [names().access]: cookies[names().access]! }
    expect((await supertest(app).get('/api/auth/me').set(withCookies(accessOnly))).status).toBe(200)
    await sleep(3100)
    expect((await supertest(app).get('/api/auth/me').set(withCookies(accessOnly))).status).toBe(401)
    // Expired, not invalid: the refresh cookie still renews it.
    expect((await supertest(app).get('/api/auth/me').set(withCookies(cookies))).status).toBe(200)
  })

  it('mean nothing to an app with another secret, even once the first app accepted them', async () => {
    const a = await t.build()
    const b = await t.build({ env: { JWT_ACCESS_SECRET: randomBytes(32).toString('hex') } })
    const { accessToken } = await login(a.app, (await makeUser()).email)
    const bearer = { Authorization: `Bearer ${accessToken}` }
    expect((await supertest(a.app).get('/api/auth/me').set(bearer)).status).toBe(200)
    expect((await supertest(b.app).get('/api/auth/me').set(bearer)).status).toBe(401)
  })
})
