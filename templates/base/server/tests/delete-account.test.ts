import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { RefreshToken, Session, User } from '../src/kernel/models/index.js'
import { setCookies } from './helpers/cookies.js'
import { account, me } from './helpers/requests.js'
import { login, makeUser, names, PASSWORD, useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

describe('DELETE /api/account', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })

  it('deletes the user after the password: 204, cookies cleared, every session ended, token rows kept without the user', async () => {
    const user = await makeUser()
    const here = await login(app, user.email)
    const elsewhere = (await login(app, user.email)).cookies
    const res = await account(app, here.cookies).remove({ password: PASSWORD })
    expect(res.status).toBe(204)
    const cleared = setCookies(res)
    for (const name of [names().access, names().refresh]) expect(cleared.get(name)?.cleared).toBe(true)

    expect(await User.findByPk(user.id)).toBeNull()
    expect((await me(app, here.cookies)).status).toBe(401)
    expect((await me(app, elsewhere)).status).toBe(401)
    const tokens = await RefreshToken.findAll({ where: { userId: null, revoked: true } })
    expect(tokens.length).toBeGreaterThanOrEqual(2)
    expect(await RefreshToken.count({ where: { userId: user.id } })).toBe(0)
    expect(await Session.count({ where: { userId: user.id } })).toBe(0)
    await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD }).expect(422)
  })

  it('a wrong password is 422 errors.password and deletes nothing', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const res = await account(app, cookies).remove({ password: 'wrong password' })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['password'])
    expect(await User.findByPk(user.id)).not.toBeNull()
  })

  it('the only admin cannot delete itself (422); with another admin it can', async () => {
    // A fresh app's database holds the admins of earlier tests: make this one the only one.
    const admins = await User.findAll({ include: ['Role'] })
    const otherAdmins = admins.filter((u) => u.Role?.name === 'admin')
    await User.destroy({ where: { id: otherAdmins.map((u) => u.id) } })
    const admin = await makeUser({ role: 'admin' })
    const { cookies } = await login(app, admin.email)
    const refused = await account(app, cookies).remove({ password: PASSWORD })
    expect(refused.status).toBe(422)
    expect(await User.findByPk(admin.id)).not.toBeNull()

    await makeUser({ role: 'admin' })
    expect((await account(app, cookies).remove({ password: PASSWORD })).status).toBe(204)
  })

  it('needs a signed-in user (401)', async () => {
    await supertest(app).delete('/api/account').send({ password: PASSWORD }).expect(401)
  })
})
