import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { User } from '../src/kernel/models/index.js'
import { waysIn } from '../src/kernel/security/ways-in.js'
import { login, makeUser, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

describe('the hello layer', () => {
  let built: TestApp
  beforeAll(async () => {
    built = await t.build()
  })

  it('answers GET /api/hello behind the API middleware', async () => {
    const res = await supertest(built.app).get('/api/hello')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ message: 'Hello' })
    expect(res.headers['cache-control']).toBe('no-store')
  })

  it('POST /api/hello queues hello:greet, whose handler mails the user', async () => {
    const user = await makeUser()
    const { cookies } = await login(built.app, user.email)
    await supertest(built.app).post('/api/hello').set(withCookies(cookies)).expect(202)
    const mail = await (await t.mailServer()).waitFor((received) => received.to.includes(user.email) && received.subject === 'Hello')
    expect(mail.body).toContain('Hello from the hello layer.')
  })

  it('adds a way in to every account: a password and hello make two', async () => {
    const user = await makeUser()
    const count = await User.sequelize!.transaction((transaction) => waysIn(built.ctx.features, user.id, transaction))
    expect(count).toBe(2)
  })
})
