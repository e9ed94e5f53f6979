import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { account, me } from './helpers/requests.js'
import { login, makeUser, PASSWORD, uniqueEmail, useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

describe('PUT /api/account/password', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })

  it('changes the password, keeps this session and signs out every other one at once', async () => {
    const user = await makeUser()
    const here = (await login(app, user.email)).cookies
    const elsewhere = (await login(app, user.email)).cookies
    const res = await account(app, here).changePassword({ current_password: PASSWORD, password: 'a brand new secret' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ message: expect.any(String) })

    expect((await me(app, here)).status).toBe(200)
    expect((await me(app, elsewhere)).status).toBe(401)
    await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD }).expect(422)
    await supertest(app).post('/api/auth/login').send({ email: user.email, password: 'a brand new secret' }).expect(200)
  })

  it('a wrong current password is 422 errors.current_password, and nothing changes', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const res = await account(app, cookies).changePassword({ current_password: 'wrong one', password: 'a brand new secret' })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['current_password'])
    await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD }).expect(200)
  })

  it.each([['short'], ['é'.repeat(37)], ['with\u0000nul']])('a new password that breaks the register rules (%s) is 422 errors.password', async (password) => {
    const { cookies } = await login(app, (await makeUser()).email)
    const res = await account(app, cookies).changePassword({ current_password: PASSWORD, password })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['password'])
  })
})

describe('wrong passwords on the account routes', () => {
  it('after 5 wrong ones in a minute, counted per user across the routes, every password-checked route is 429, right password or not', async () => {
    const { app } = await t.build()
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const api = account(app, cookies)
    const wrong = 'not my password'
    expect((await api.changePassword({ current_password: wrong, password: 'another secret' })).status).toBe(422)
    expect((await api.changeEmail({ email: uniqueEmail('x'), password: wrong })).status).toBe(422)
    expect((await api.revokeOthers({ password: wrong })).status).toBe(422)
    expect((await api.remove({ password: wrong })).status).toBe(422)
    expect((await api.changePassword({ current_password: wrong, password: 'another secret' })).status).toBe(422)

    for (const res of [
      await api.changePassword({ current_password: PASSWORD, password: 'another secret' }),
      await api.changeEmail({ email: uniqueEmail('y'), password: PASSWORD }),
      await api.revokeOthers({ password: PASSWORD }),
      await api.remove({ password: PASSWORD }),
    ]) {
      expect(res.status).toBe(429)
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
    }
    // Still there, and other users are not affected.
    expect((await me(app, cookies)).status).toBe(200)
    const other = await login(app, (await makeUser()).email)
    expect((await account(app, other.cookies).revokeOthers({ password: PASSWORD })).status).toBe(204)
  })

  it('right passwords do not count', async () => {
    const { app } = await t.build()
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    for (let i = 0; i < 7; i++) expect((await account(app, cookies).revokeOthers({ password: PASSWORD })).status).toBe(204)
  })
})
