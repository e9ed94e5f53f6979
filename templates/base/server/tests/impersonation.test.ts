import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Express } from 'express'
import { Router } from 'express'
import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { features } from '../src/features/index.js'
import type { AppContext, AppFeature } from '../src/kernel/context.js'
import { authenticate, requireConfirmed } from '../src/kernel/index.js'
import { SecurityEvent, Session, User, WebhookEndpoint } from '../src/kernel/models/index.js'
import { jar, setCookies } from './helpers/cookies.js'
import { mailTo } from './helpers/mail.js'
import { me, refreshOnly, within } from './helpers/requests.js'
import { login, makeUser, names, PASSWORD, useTestApps, withCookies, type Session as SignedIn } from './helpers/test-app.js'

/**
 * A stand-in layer with routes at each of the kernel's points a layer's credential routes use:
 * an account route (as a second factor's or a key's settings), an area of its own declared
 * session-only (as a team's keys), and a step-up route (as a team's deletion). The one guard of
 * an impersonation must cover them without the layer asking.
 */
const standIn: AppFeature = {
  name: 'stand-in',
  routes: {
    account: (router) => void router.post('/stand-in-factor', (_req, res) => void res.status(204).end()),
    api: (router, ctx) => {
      const area = Router()
      area.post('/keys', authenticate(ctx as AppContext), (_req, res) => void res.status(204).end())
      area.post('/sensitive', authenticate(ctx as AppContext), requireConfirmed(ctx as AppContext), (_req, res) => void res.status(204).end())
      area.get('/open', authenticate(ctx as AppContext), (_req, res) => void res.json({ ok: true }))
      router.use('/stand-in', area)
    },
    sessionOnly: ['/api/stand-in/keys'],
  },
}

const t = useTestApps()
let app: Express
let ctx: AppContext
let admin: SignedIn
let adminId: number
let receiver: http.Server
const heard: { type: string; data: { userId: number; impersonatorId?: number } }[] = []

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      heard.push(JSON.parse(body))
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  ;({ app, ctx } = await t.build({ auth: { requireEmailVerification: false }, env: { WEBHOOK_ALLOW_PRIVATE: 'on' }, features: [...features, standIn] }))
  const user = await makeUser({ role: 'admin', name: 'Ada Admin' })
  adminId = user.id
  admin = await login(app, user.email)
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
  const hook = await supertest(app).post('/api/webhooks').set(withCookies(admin.cookies)).send({ url, events: ['impersonation_started', 'impersonation_ended'] })
  expect(hook.status, JSON.stringify(hook.body)).toBe(201)
})

afterAll(async () => {
  await WebhookEndpoint.destroy({ where: {} })
  await new Promise((resolve) => receiver.close(resolve))
})

const impersonate = (id: number, cookies = admin.cookies) => supertest(app).post(`/api/users/${id}/impersonation`).set(withCookies(cookies))
const stop = (cookies: Record<string, string>) => supertest(app).delete('/api/auth/impersonation').set(withCookies(cookies))

/** An admin of its own (the file's admin stays signed in as itself), signed in as a new user. */
async function impersonating(name = 'Uma User') {
  const adminUser = await makeUser({ role: 'admin', name: 'Ivo Impersonator' })
  const own = await login(app, adminUser.email)
  const user = await makeUser({ name })
  const res = await impersonate(user.id, own.cookies)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return { admin: adminUser, own, user, res, cookies: jar(res, own.cookies) }
}

describe('POST /api/users/:id/impersonation', () => {
  it("answers the user; its cookies replace the admin's, and /me names the impersonator", async () => {
    const { admin: by, user, res, cookies, own } = await impersonating()
    expect(res.body.user).toMatchObject({ id: user.id, email: user.email, role: 'user' })
    const set = setCookies(res)
    expect(set.get(names().access)?.raw).toBeTruthy()
    expect(set.get(names().refresh)?.raw).toBeTruthy()
    expect(cookies[names().refresh]).not.toBe(own.cookies[names().refresh])

    const seen = await me(app, cookies)
    expect(seen.status).toBe(200)
    expect(seen.body).toEqual({ user: expect.objectContaining({ id: user.id }), impersonator: { id: by.id, name: 'Ivo Impersonator' } })
    // Every other session answers impersonator null: the user's own, and the admin's.
    expect((await me(app, (await login(app, user.email)).cookies)).body.impersonator).toBeNull()
    expect((await me(app, admin.cookies)).body).toEqual({ user: expect.objectContaining({ id: adminId }), impersonator: null })
  })

  it('is a session of an hour at most, carrying the admin, and lives on through a renewal', async () => {
    const { admin: by, user, res, cookies } = await impersonating()
    const session = await Session.findOne({ where: { userId: user.id, impersonatorId: by.id } })
    expect(session).not.toBeNull()
    expect(session!.expiresAt.getTime() - session!.createdAt.getTime()).toBeLessThanOrEqual(3600_000)
    expect(session!.confirmedUntil).toBeNull()
    expect(setCookies(res).get(names().refresh)!.maxAge).toBeLessThanOrEqual(3600)
    // The access token renewed from the refresh cookie is still the impersonation's.
    const renewed = await me(app, refreshOnly(cookies))
    expect(renewed.body.impersonator).toEqual({ id: by.id, name: 'Ivo Impersonator' })

    // An hour later it is over.
    await Session.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { id: session!.id } })
    ctx.authCache.sessionsChanged(user.id)
    expect((await me(app, cookies)).status).toBe(401)
  })

  it('never as an admin, oneself or a suspended user (422 errors.id); an unknown user is 404', async () => {
    const other = await makeUser({ role: 'admin' })
    for (const id of [other.id, adminId]) {
      const res = await impersonate(id)
      expect(res.status).toBe(422)
      expect(Object.keys(res.body.errors)).toEqual(['id'])
    }
    const suspended = await makeUser()
    await supertest(app).post(`/api/users/${suspended.id}/suspension`).set(withCookies(admin.cookies)).send({ reason: 'Test' }).expect(200)
    expect(Object.keys((await impersonate(suspended.id)).body.errors)).toEqual(['id'])
    await impersonate(99_999_999).expect(404)
    expect((await me(app, admin.cookies)).body.user.id).toBe(adminId)
  })

  it('is for admins only (403), and asks to confirm it is you (403 errors.confirm)', async () => {
    const user = await makeUser()
    const plain = await login(app, (await makeUser()).email)
    await impersonate(user.id, plain.cookies).expect(403)
    const unconfirmedAdmin = await makeUser({ role: 'admin' })
    const session = await login(app, unconfirmedAdmin.email)
    await Session.update({ confirmedUntil: null }, { where: { userId: unconfirmedAdmin.id } })
    const res = await impersonate(user.id, session.cookies)
    expect(res.status).toBe(403)
    expect(Object.keys(res.body.errors)).toEqual(['confirm'])
    expect(await Session.count({ where: { userId: user.id } })).toBe(0)
  })

  it('mails the user one notice, and nothing else while it lasts', async () => {
    const mail = await t.mailServer()
    const { user, cookies } = await impersonating()
    const notice = await mail.waitFor(mailTo(user.email))
    expect(notice.subject).toBe('An administrator signed in as you')
    // Acting as the user raises events; none of them mails the user.
    await supertest(app).get('/api/account/activity').set(withCookies(cookies)).expect(200)
    await supertest(app).put('/api/account/password').set(withCookies(cookies)).send({ current_password: PASSWORD, password: 'another long password 9' }).expect(403)
    await stop(cookies).expect(200)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(mail.received.filter(mailTo(user.email))).toHaveLength(1)
  })
})

describe('while impersonating', () => {
  it('no credential, session, key, step-up or deletion route works (403), a layer\'s included', async () => {
    const { user, cookies } = await impersonating()
    const as = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, body: object = {}) => supertest(app)[method](path).set(withCookies(cookies)).send(body)
    const refused: [string, supertest.Test][] = [
      ['change the password', as('put', '/api/account/password', { current_password: PASSWORD, password: 'another long password 1' })],
      ['change the e-mail address', as('post', '/api/account/email', { email: 'new@example.test' })],
      ['change the profile', as('patch', '/api/account/profile', { name: 'Changed' })],
      ['delete the account', as('delete', '/api/account', { password: PASSWORD })],
      ['list sessions', as('get', '/api/account/sessions')],
      ['sign out the other sessions', as('delete', '/api/account/sessions')],
      ['confirm it is you', as('post', '/api/account/confirm', { password: PASSWORD })],
      ['ask how to confirm', as('get', '/api/account/confirm')],
      ['sign out', as('post', '/api/auth/logout')],
      ['sign out everywhere', as('post', '/api/auth/logout-all')],
      ["a layer's account route", as('post', '/api/account/stand-in-factor')],
      ["a layer's session-only area", as('post', '/api/stand-in/keys')],
      ["a layer's step-up route", as('post', '/api/stand-in/sensitive')],
    ]
    for (const [name, request] of refused) {
      const res = await request
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(403)
      expect(res.body).toEqual({ message: 'Forbidden.' })
    }
    // The user's own pages work: what they see is what the admin came for.
    expect((await as('get', '/api/stand-in/open')).status).toBe(200)
    expect((await as('get', '/api/account/activity')).status).toBe(200)
    // Nothing changed.
    const row = (await User.findByPk(user.id))!
    expect(row.name).toBe('Uma User')
    expect(await Session.count({ where: { userId: user.id, revokedAt: null } })).toBe(1)
  })

  it('every activity row and webhook names the impersonator', async () => {
    const { admin: by, user, cookies } = await impersonating()
    await stop(cookies).expect(200)
    const rows = await SecurityEvent.findAll({ where: { userId: user.id }, order: [['id', 'ASC']] })
    expect(rows.map((row) => [row.type, row.impersonatorId])).toEqual([
      ['impersonation_started', by.id],
      ['impersonation_ended', by.id],
    ])
    const activity = await supertest(app).get(`/api/users/${user.id}/activity`).set(withCookies(admin.cookies))
    expect(activity.body.data.data.map((event: { impersonatorId: number | null }) => event.impersonatorId)).toEqual([by.id, by.id])
    await within(10_000, async () => heard.filter((message) => message.data.userId === user.id).length === 2)
    for (const message of heard.filter((sent) => sent.data.userId === user.id)) expect(message.data.impersonatorId).toBe(by.id)
    // A row written outside an impersonation names nobody.
    await login(app, user.email)
    const signIn = await SecurityEvent.findOne({ where: { userId: user.id, type: 'sign_in' } })
    expect(signIn!.impersonatorId).toBeNull()
  })
})

describe('what the user and the auditors see', () => {
  it("the user's sessions list the admin's, marked with its id; ending it ends the impersonation", async () => {
    const { admin: by, user, cookies } = await impersonating()
    const own = await login(app, user.email)
    const listed = await supertest(app).get('/api/account/sessions').set(withCookies(own.cookies))
    expect(listed.status).toBe(200)
    const [mine, theirs] = listed.body.data as { id: string; current: boolean; impersonatorId?: number }[]
    expect(mine).toMatchObject({ current: true })
    // The user's own sessions keep the documented fields and no more.
    expect(mine).not.toHaveProperty('impersonatorId')
    expect(theirs).toMatchObject({ current: false, impersonatorId: by.id })

    await supertest(app).delete(`/api/account/sessions/${theirs!.id}`).set(withCookies(own.cookies)).expect(204)
    expect((await me(app, cookies)).status).toBe(401)
  })

  it('the audit export names the impersonator in the meta of what happened meanwhile', async () => {
    const { admin: by, user, cookies } = await impersonating()
    await stop(cookies).expect(200)
    const res = await supertest(app).get('/api/activity/export?format=ndjson').set(withCookies(admin.cookies))
    expect(res.status).toBe(200)
    const rows = res.text.trim().split('\n').map((line) => JSON.parse(line) as { userId: number; type: string; meta: { impersonatorId?: number } | null })
    const theirs = rows.filter((row) => row.userId === user.id)
    expect(theirs.map((row) => row.type)).toEqual(['impersonation_started', 'impersonation_ended'])
    for (const row of theirs) expect(row.meta).toMatchObject({ impersonatorId: by.id })
    expect(Object.keys(theirs[0]!).sort()).toEqual(['createdAt', 'device', 'id', 'ip', 'meta', 'type', 'userId'])
    // Rows of no impersonation keep their meta as stored.
    expect(rows.filter((row) => row.type === 'sign_in').every((row) => row.meta?.impersonatorId === undefined)).toBe(true)
  })
})

describe('DELETE /api/auth/impersonation', () => {
  it("returns to the admin's own session, and the impersonation session is dead", async () => {
    const { admin: by, own, cookies } = await impersonating()
    const ownSession = (await supertest(app).get('/api/account/sessions').set(withCookies(own.cookies))).body.data.find((s: { current: boolean }) => s.current).id
    const res = await stop(cookies)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.user).toMatchObject({ id: by.id, role: 'admin' })
    const back = jar(res, cookies)
    expect((await me(app, back)).body).toEqual({ user: expect.objectContaining({ id: by.id }), impersonator: null })
    // The same session as before, not a new sign-in; and it renews as before.
    const sessions = (await supertest(app).get('/api/account/sessions').set(withCookies(back))).body.data as { id: string; current: boolean }[]
    expect(sessions.find((s) => s.current)?.id).toBe(ownSession)
    expect((await supertest(app).post('/api/auth/refresh-token').set(withCookies(refreshOnly(back)))).status).toBe(200)
    // The impersonation's cookies prove nothing any more.
    expect((await me(app, cookies)).status).toBe(401)
    expect((await me(app, refreshOnly(cookies))).status).toBe(401)
    expect((await stop(cookies)).status).toBe(401)
  })

  it('a session that is no impersonation is refused (403); signed out, 401', async () => {
    await stop(admin.cookies).expect(403)
    await supertest(app).delete('/api/auth/impersonation').expect(401)
    expect((await me(app, admin.cookies)).status).toBe(200)
  })

  it("when the admin's own session ended meanwhile: 401, and this browser is signed out", async () => {
    const { admin: by, own, cookies } = await impersonating()
    await supertest(app).post('/api/auth/logout').set(withCookies(own.cookies)).expect(204)
    const res = await stop(cookies)
    expect(res.status).toBe(401)
    expect(setCookies(res).get(names().access)?.cleared).toBe(true)
    expect(await Session.count({ where: { impersonatorId: by.id, revokedAt: null } })).toBe(0)
  })
})
