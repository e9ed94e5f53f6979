import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Express } from 'express'
import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { revokeSessionRows } from '../src/kernel/auth/sessions.js'
import { Role, SecurityEvent, Session, User, WebhookEndpoint } from '../src/kernel/models/index.js'
import { unconfirm } from './helpers/confirmation.js'
import { mailTo } from './helpers/mail.js'
import { me, refreshOnly, within } from './helpers/requests.js'
import { login, makeUser, PASSWORD, useTestApps, withCookies, type Session as SignedIn } from './helpers/test-app.js'

const t = useTestApps()
let app: Express
let admin: SignedIn
let adminId: number
let receiver: http.Server
/** What the receiver was sent: each webhook message's JSON. */
const heard: { type: string; data: { userId: number; meta: unknown } }[] = []

const DAY_MS = 24 * 3600_000

beforeAll(async () => {
  // A receiver on this machine, so the suspension's webhooks are delivered somewhere real.
  receiver = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      heard.push(JSON.parse(body))
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  ;({ app } = await t.build({ auth: { requireEmailVerification: false }, env: { WEBHOOK_ALLOW_PRIVATE: 'on' } }))
  const user = await makeUser({ role: 'admin', name: 'Ada Admin' })
  adminId = user.id
  admin = await login(app, user.email)
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
  const hook = await supertest(app).post('/api/webhooks').set(withCookies(admin.cookies)).send({ url, events: ['user_suspended', 'user_unsuspended'] })
  expect(hook.status, JSON.stringify(hook.body)).toBe(201)
})

afterAll(async () => {
  // The next file on this database must not deliver to this endpoint.
  await WebhookEndpoint.destroy({ where: {} })
  await new Promise((resolve) => receiver.close(resolve))
})

const suspend = (id: number, body: object, cookies = admin.cookies) => supertest(app).post(`/api/users/${id}/suspension`).set(withCookies(cookies)).send(body)
const unsuspend = (id: number, cookies = admin.cookies) => supertest(app).delete(`/api/users/${id}/suspension`).set(withCookies(cookies))
const tryLogin = (email: string) => supertest(app).post('/api/auth/login').send({ email, password: PASSWORD })

describe('POST /api/users/:id/suspension', () => {
  it('ends every session and refresh token of the user at once, and answers the suspended user', async () => {
    const user = await makeUser()
    const sessions = [await login(app, user.email), await login(app, user.email, PASSWORD, true)]
    const bystander = await login(app, (await makeUser()).email)
    for (const session of sessions) expect((await me(app, session.cookies)).status).toBe(200)

    // Whole seconds: MySQL's DATETIME keeps no more.
    const until = new Date(Math.floor((Date.now() + 3 * DAY_MS) / 1000) * 1000)
    const res = await suspend(user.id, { reason: 'Spam in the forum', until: until.toISOString() })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.user).toMatchObject({ id: user.id, suspensionReason: 'Spam in the forum', suspendedUntil: until.toISOString() })
    expect(Date.parse(res.body.user.suspendedAt)).toBeGreaterThan(Date.now() - 60_000)

    for (const session of sessions) {
      // The access token dies with its session, not 15 minutes later; the refresh token with it.
      expect((await me(app, session.cookies)).status).toBe(401)
      expect((await supertest(app).post('/api/auth/refresh-token').set(withCookies(refreshOnly(session.cookies)))).status).toBe(401)
    }
    expect(await Session.count({ where: { userId: user.id, revokedAt: null } })).toBe(0)
    expect((await me(app, bystander.cookies)).status).toBe(200)
  })

  it('refuses sign-in with 403 on errors.email, naming the end date, only after the right password', async () => {
    const user = await makeUser()
    const until = new Date(Date.UTC(2099, 4, 17, 9, 30))
    await suspend(user.id, { reason: 'Chargeback', until: until.toISOString() }).expect(200)
    const refused = await tryLogin(user.email)
    expect(refused.status).toBe(403)
    expect(refused.body.errors.email).toEqual([refused.body.message])
    expect(refused.body.message).toContain('May 17, 2099')
    expect(refused.body.message).toContain('9:30')
    // A wrong password learns nothing of the suspension.
    const wrong = await supertest(app).post('/api/auth/login').send({ email: user.email, password: 'not the password' })
    expect(wrong.status).toBe(422)
    expect(JSON.stringify(wrong.body)).not.toMatch(/suspend/i)
    // In the reader's language.
    const german = await supertest(app).post('/api/auth/login').set('Accept-Language', 'de').send({ email: user.email, password: PASSWORD })
    expect(german.body.message).toContain('17. Mai 2099')
  })

  it('without an end date, sign-in is refused indefinitely', async () => {
    const user = await makeUser()
    const res = await suspend(user.id, { reason: 'Abuse' })
    expect(res.body.user).toMatchObject({ suspendedUntil: null, suspensionReason: 'Abuse' })
    const refused = await tryLogin(user.email)
    expect(refused.status).toBe(403)
    expect(refused.body.message).toMatch(/indefinitely/)
  })

  it('mails the user why and until when', async () => {
    const user = await makeUser({ name: 'Mallory' })
    const mail = (await t.mailServer()).next(mailTo(user.email))
    await suspend(user.id, { reason: 'Repeated spam', until: new Date(Date.UTC(2098, 0, 2, 12)).toISOString() }).expect(200)
    const received = await mail
    expect(received.subject).toBe('Your account was suspended')
    expect(received.body).toContain('Hello Mallory,')
    expect(received.body).toContain('Reason: Repeated spam')
    expect(received.body).toContain('January 2, 2098')
  })

  it('is an event on the account and a webhook, naming the admin, the end and the reason', async () => {
    const user = await makeUser()
    await suspend(user.id, { reason: 'Fraud' }).expect(200)
    const row = await SecurityEvent.findOne({ where: { userId: user.id, type: 'user_suspended' } })
    expect(row?.revoking).toBe(true)
    expect(JSON.parse(row!.meta!)).toEqual({ by: adminId, until: null, reason: 'Fraud' })
    await unsuspend(user.id).expect(200)
    expect(await SecurityEvent.count({ where: { userId: user.id, type: 'user_unsuspended' } })).toBe(1)

    const mine = () => heard.filter((message) => message.data.userId === user.id)
    await within(10_000, async () => mine().length === 2)
    expect(mine().map((message) => message.type).sort()).toEqual(['user_suspended', 'user_unsuspended'])
    expect(mine().find((message) => message.type === 'user_suspended')!.data.meta).toEqual({ by: adminId, until: null, reason: 'Fraud' })
  })

  it('a suspension past its end is over by itself: sign-in works, the user shows as not suspended', async () => {
    const user = await makeUser({ email: `ended-${Date.now()}@example.test` })
    await suspend(user.id, { reason: 'Cool-off', until: new Date(Date.now() + DAY_MS).toISOString() }).expect(200)
    expect((await tryLogin(user.email)).status).toBe(403)
    const listed = async (suspended: boolean) =>
      (await supertest(app).get('/api/users').query({ search: user.email, 'filter[suspended]': String(suspended) }).set(withCookies(admin.cookies))).body.data.data as { id: number }[]
    expect((await listed(true)).map((row) => row.id)).toEqual([user.id])
    expect(await listed(false)).toEqual([])

    // As if the day had passed: nothing ran at that moment.
    await User.update({ suspendedUntil: new Date(Date.now() - 1000) }, { where: { id: user.id } })
    expect((await tryLogin(user.email)).status).toBe(200)
    expect(await listed(true)).toEqual([])
    const [row] = await listed(false)
    expect(row).toMatchObject({ id: user.id, suspendedAt: null, suspendedUntil: null, suspensionReason: null })
  })

  it('refuses bad input: no reason, an end in the past, an unknown filter value (422)', async () => {
    const user = await makeUser()
    expect(Object.keys((await suspend(user.id, {})).body.errors)).toEqual(['reason'])
    expect(Object.keys((await suspend(user.id, { reason: '   ' })).body.errors)).toEqual(['reason'])
    expect(Object.keys((await suspend(user.id, { reason: 'x'.repeat(501) })).body.errors)).toEqual(['reason'])
    const past = await suspend(user.id, { reason: 'Late', until: '2001-01-01T00:00:00Z' })
    expect(past.status).toBe(422)
    expect(Object.keys(past.body.errors)).toEqual(['until'])
    expect((await suspend(user.id, { reason: 'Odd', until: 'tomorrow' })).status).toBe(422)
    const filter = await supertest(app).get('/api/users').query({ 'filter[suspended]': 'maybe' }).set(withCookies(admin.cookies))
    expect(filter.status).toBe(422)
    expect(Object.keys(filter.body.errors)).toEqual(['filter.suspended'])
    expect((await tryLogin(user.email)).status).toBe(200)
  })

  it('an admin cannot suspend itself (422 errors.id); an unknown user is 404', async () => {
    const res = await suspend(adminId, { reason: 'Me' })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['id'])
    expect((await me(app, admin.cookies)).status).toBe(200)
    await suspend(99_999_999, { reason: 'Nobody' }).expect(404)
    await unsuspend(99_999_999).expect(404)
  })

  it('is for admins only (403), signed in (401), and asks to confirm it is you (403 errors.confirm)', async () => {
    const user = await makeUser()
    const other = await login(app, (await makeUser()).email)
    await suspend(user.id, { reason: 'No' }, other.cookies).expect(403)
    await unsuspend(user.id, other.cookies).expect(403)
    await supertest(app).post(`/api/users/${user.id}/suspension`).send({ reason: 'No' }).expect(401)

    const unconfirmed = await login(app, (await makeUser({ role: 'admin' })).email)
    await unconfirm((await User.findOne({ where: { email: unconfirmed.res.body.user.email } }))!.id)
    const res = await suspend(user.id, { reason: 'No' }, unconfirmed.cookies)
    expect(res.status).toBe(403)
    expect(Object.keys(res.body.errors)).toEqual(['confirm'])
    expect((await tryLogin(user.email)).status).toBe(200)
  })
})

describe('a suspension committed while a sign-in is under way', () => {
  it('ends the session that sign-in was writing: 403 on errors.email, no session left', async () => {
    const user = await makeUser()
    const sequelize = User.sequelize!
    let commit!: () => void
    const committing = new Promise<void>((resolve) => (commit = resolve))
    // The admin's change as the security core makes it: the user's row locked first, the sessions
    // ended, the suspension written; held open while the sign-in passes its first check.
    const suspension = sequelize.transaction(async (transaction) => {
      await User.findAll({ attributes: ['id'], where: { id: user.id }, lock: transaction.LOCK.UPDATE, transaction })
      await revokeSessionRows([user.id], { transaction })
      await User.update({ suspendedAt: new Date(), suspensionReason: 'Race' }, { where: { id: user.id }, transaction })
      await committing
    })
    const signingIn = tryLogin(user.email).then((res) => res)
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    commit()
    await suspension
    const res = await signingIn
    expect(res.status, JSON.stringify(res.body)).toBe(403)
    expect(Object.keys(res.body.errors)).toEqual(['email'])
    expect(await Session.count({ where: { userId: user.id, revokedAt: null } })).toBe(0)
  })
})

describe('DELETE /api/users/:id/suspension', () => {
  it('lifts it: sign-in works again, and the answer is the user, unsuspended', async () => {
    const user = await makeUser()
    await suspend(user.id, { reason: 'Mistake' }).expect(200)
    expect((await tryLogin(user.email)).status).toBe(403)
    const res = await unsuspend(user.id)
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ id: user.id, suspendedAt: null, suspendedUntil: null, suspensionReason: null })
    expect((await tryLogin(user.email)).status).toBe(200)
  })
})

describe('never the last admin who can sign in', () => {
  it('a suspension that would leave no admin able to sign in is 422, and changes nothing', async () => {
    // A fresh app's database holds the admins of earlier tests: leave two.
    const role = await Role.findOne({ where: { name: 'admin' } })
    await User.destroy({ where: { roleId: role!.id } })
    const caller = await makeUser({ role: 'admin' })
    const other = await makeUser({ role: 'admin' })
    const session = await login(app, caller.email)
    // The caller's own suspension commits while its request is on its way (its session still cached).
    await User.update({ suspendedAt: new Date() }, { where: { id: caller.id } })
    const res = await suspend(other.id, { reason: 'Race' }, session.cookies)
    expect(res.status, JSON.stringify(res.body)).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['id'])
    expect((await User.findByPk(other.id))!.suspendedAt).toBeNull()
    expect((await tryLogin(other.email)).status).toBe(200)
  })
})
