import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { account, me } from './helpers/requests.js'
import { login, makeUser, useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

describe('PATCH /api/account/profile', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })

  it('changes the name: 200 {user}, and /me says so at once', async () => {
    const user = await makeUser({ name: 'Before' })
    const { cookies } = await login(app, user.email)
    const res = await account(app, cookies).profile({ name: '  After  ' })
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ id: user.id, name: 'After', email: user.email })
    expect(Object.keys(res.body)).toEqual(['user'])
    expect(res.body.user).not.toHaveProperty('password')
    expect((await me(app, cookies)).body.user.name).toBe('After')
  })

  it.each([[{}], [{ name: '' }], [{ name: 'x'.repeat(256) }], [{ name: 'Line\nBreak' }], [{ name: 42 }]])('refuses %o with 422 errors.name', async (body) => {
    const { cookies } = await login(app, (await makeUser()).email)
    const res = await account(app, cookies).profile(body)
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['name'])
  })

  it('needs a signed-in user (401)', async () => {
    await supertest(app).patch('/api/account/profile').send({ name: 'Nobody' }).expect(401)
  })
})
