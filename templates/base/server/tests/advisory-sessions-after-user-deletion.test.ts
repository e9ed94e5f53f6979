import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { account, me, refreshOnly } from './helpers/requests.js'
import { login, makeUser, PASSWORD, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

/**
 * The class of sessions surviving user deletion (better-auth GHSA-2vg6-77g8-24mp): once an
 * account is gone, neither its access token nor its refresh token works, on the next request.
 */
const t = useTestApps()
let app: TestApp['app']
beforeAll(async () => {
  ;({ app } = await t.build())
})

async function expectGone(cookies: Record<string, string>) {
  expect((await me(app, cookies)).status).toBe(401)
  expect((await me(app, refreshOnly(cookies))).status).toBe(401)
  expect((await supertest(app).post('/api/auth/refresh-token').set(withCookies(cookies))).status).toBe(401)
}

describe('no session outlives its user', () => {
  it('deleted by an admin: every session of the user ends at once', async () => {
    const user = await makeUser()
    const sessions = [(await login(app, user.email)).cookies, (await login(app, user.email, PASSWORD, true)).cookies]
    for (const cookies of sessions) await me(app, cookies).expect(200)
    const admin = (await login(app, (await makeUser({ role: 'admin' })).email)).cookies
    await supertest(app).delete('/api/users').set(withCookies(admin)).send({ ids: [user.id] }).expect(200)
    for (const cookies of sessions) await expectGone(cookies)
  })

  it('deleted by its owner: the other sessions end too', async () => {
    const user = await makeUser()
    const [mine, other] = [(await login(app, user.email)).cookies, (await login(app, user.email)).cookies]
    await account(app, mine).remove({ password: PASSWORD }).expect(204)
    await expectGone(mine)
    await expectGone(other)
  })
})
