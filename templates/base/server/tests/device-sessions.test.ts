import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { Session } from '../src/kernel/models/index.js'
import { jar } from './helpers/cookies.js'
import { account, me, refreshOnly } from './helpers/requests.js'
import { login, makeUser, PASSWORD, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36'
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0'

describe('device sessions', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build({ env: { TRUST_PROXY: 'true' } }))
  })

  async function signIn(email: string, userAgent: string, ip: string, remember = false) {
    const res = await supertest(app)
      .post('/api/auth/login')
      .set('User-Agent', userAgent)
      .set('X-Forwarded-For', ip)
      .send({ email, password: PASSWORD, remember })
    expect(res.status).toBe(200)
    return jar(res)
  }

  it('GET /sessions lists live sessions: the current first, then by last use, each with device, IP, dates and remember-me', async () => {
    const user = await makeUser()
    const firefox = await signIn(user.email, FIREFOX_WINDOWS, '198.51.100.7', true)
    const chrome = await signIn(user.email, CHROME_LINUX, '203.0.113.9')
    const ended = await signIn(user.email, CHROME_LINUX, '203.0.113.10')
    await supertest(app).post('/api/auth/logout').set(withCookies(ended)).expect(204)

    const res = await account(app, chrome).sessions()
    expect(res.status).toBe(200)
    expect(res.body.data).toHaveLength(2)
    const [current, other] = res.body.data
    expect(current).toEqual({
      id: expect.any(String),
      current: true,
      device: 'Chrome on Linux',
      ip: '203.0.113.9',
      createdAt: expect.any(String),
      lastUsedAt: expect.any(String),
      expiresAt: expect.any(String),
      remember: false,
    })
    expect(other).toMatchObject({ current: false, device: 'Firefox on Windows', ip: '198.51.100.7', remember: true })
    for (const session of res.body.data) {
      for (const key of ['createdAt', 'lastUsedAt', 'expiresAt']) expect(new Date(session[key]).toISOString()).toBe(session[key])
    }
    // The remember-me session lives longer.
    expect(Date.parse(other.expiresAt)).toBeGreaterThan(Date.parse(current.expiresAt))
    expect((await account(app, firefox).sessions()).body.data[0]).toMatchObject({ current: true, device: 'Firefox on Windows' })
  })

  it('orders the other sessions by last use, most recent first', async () => {
    const user = await makeUser()
    await signIn(user.email, CHROME_LINUX, '192.0.2.1')
    await signIn(user.email, FIREFOX_WINDOWS, '192.0.2.2')
    const c = await signIn(user.email, CHROME_LINUX, '192.0.2.3')
    const ids = (await account(app, c).sessions()).body.data.map((s: { id: string }) => s.id)
    await Session.update({ lastUsedAt: new Date(Date.now() - 3_600_000) }, { where: { id: ids[2] } })
    await Session.update({ lastUsedAt: new Date(Date.now() - 60_000) }, { where: { id: ids[1] } })
    const ordered = (await account(app, c).sessions()).body.data.map((s: { ip: string }) => s.ip)
    expect(ordered[0]).toBe('192.0.2.3')
    expect(ordered.slice(1).sort()).toEqual(['192.0.2.1', '192.0.2.2'])
  })

  it('DELETE /sessions/:id signs that session out at once, access token included; others stay', async () => {
    const user = await makeUser()
    const here = await signIn(user.email, CHROME_LINUX, '192.0.2.10')
    const lost = await signIn(user.email, FIREFOX_WINDOWS, '192.0.2.11')
    const lostId = (await account(app, lost).sessions()).body.data[0].id as string
    expect((await me(app, lost)).status).toBe(200)

    await account(app, here).revokeSession(lostId).expect(204)
    expect((await me(app, lost)).status).toBe(401)
    expect((await me(app, refreshOnly(lost))).status).toBe(401)
    await supertest(app).post('/api/auth/refresh-token').set(withCookies(lost)).expect(401)
    expect((await me(app, here)).status).toBe(200)
    expect((await account(app, here).sessions()).body.data.map((s: { id: string }) => s.id)).not.toContain(lostId)
  })

  it('another user\'s session, an ended one or an unknown id is 404', async () => {
    const user = await makeUser()
    const stranger = await makeUser()
    const mine = await signIn(user.email, CHROME_LINUX, '192.0.2.20')
    const theirs = await signIn(stranger.email, CHROME_LINUX, '192.0.2.21')
    const theirId = (await account(app, theirs).sessions()).body.data[0].id as string
    await account(app, mine).revokeSession(theirId).expect(404)
    expect((await me(app, theirs)).status).toBe(200)
    await account(app, mine).revokeSession('no-such-session').expect(404)
    await account(app, mine).revokeSession('1').expect(404)
  })

  it('DELETE /sessions with the password signs out every other session; a wrong password is 422 errors.password', async () => {
    const user = await makeUser()
    const here = await signIn(user.email, CHROME_LINUX, '192.0.2.30')
    const others = [await signIn(user.email, FIREFOX_WINDOWS, '192.0.2.31'), await signIn(user.email, CHROME_LINUX, '192.0.2.32')]
    const wrong = await account(app, here).revokeOthers({ password: 'nope nope' })
    expect(wrong.status).toBe(422)
    expect(Object.keys(wrong.body.errors)).toEqual(['password'])
    for (const other of others) expect((await me(app, other)).status).toBe(200)

    await account(app, here).revokeOthers({ password: PASSWORD }).expect(204)
    for (const other of others) expect((await me(app, other)).status).toBe(401)
    expect((await me(app, here)).status).toBe(200)
    expect((await account(app, here).sessions()).body.data).toHaveLength(1)
  })

  it('needs a signed-in user (401)', async () => {
    await supertest(app).get('/api/account/sessions').expect(401)
    await supertest(app).delete('/api/account/sessions/abc').expect(401)
  })
})

describe('session records', () => {
  it('a login with "remember me" records it, and the user agent and IP it came from', async () => {
    const { app } = await t.build()
    const user = await makeUser()
    const session = await login(app, user.email, PASSWORD, true)
    const [row] = (await account(app, session.cookies).sessions()).body.data
    expect(row).toMatchObject({ current: true, remember: true })
    expect(row.ip).toMatch(/^(127\.0\.0\.1|::1)$/)
  })
})
