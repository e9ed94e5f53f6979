import type { Express } from 'express'
import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SecurityEvent, Session, WebhookEndpoint } from '../src/kernel/models/index.js'
import { jar } from './helpers/cookies.js'
import { refreshOnly } from './helpers/requests.js'
import { login, makeUser, PASSWORD, uniqueEmail, useTestApps, withCookies } from './helpers/test-app.js'
import type { GuardedRoute, StepUpFile, StepUpSubject } from './step-up/types.js'
import { confirm as confirmWith, confirmation as confirmationOf, unconfirm } from './helpers/confirmation.js'

// Every layer lists its guarded routes in a file of tests/step-up/: one table, every route.
const files = Object.values(import.meta.glob<StepUpFile>(['./step-up/*.ts', '!./step-up/types.ts'], { eager: true }))
const guardedRoutes = files.flatMap((file) => file.guardedRoutes)

const t = useTestApps()
let app: Express
const closers: (() => Promise<void>)[] = []

beforeAll(async () => {
  const env: Record<string, string> = {}
  for (const file of files) {
    const started = await file.setup?.()
    if (!started) continue
    Object.assign(env, started.env)
    closers.push(started.close)
  }
  ;({ app } = await t.build({ auth: { requireEmailVerification: false }, env }))
})
afterAll(async () => {
  for (const close of closers) await close()
  // The webhook rows' endpoints: the next file on this database must not deliver to them.
  await WebhookEndpoint.destroy({ where: {} })
})

async function signedIn(role: 'admin' | 'user' = 'user'): Promise<StepUpSubject> {
  const user = await makeUser({ role })
  const { cookies } = await login(app, user.email)
  return { app, user, cookies }
}
const confirmation = (cookies: Record<string, string>) => confirmationOf(app, cookies)
const confirm = (cookies: Record<string, string>, body: object) => confirmWith(app, cookies, body)
const expire = (userId: number) => Session.update({ confirmedUntil: new Date(Date.now() - 1000) }, { where: { userId } })

/** Prepares the row's request first: preparing (turning on a second factor, say) may itself end a confirmation. */
async function prepare(route: GuardedRoute) {
  const subject = await signedIn(route.role)
  const { method, path, body } = await route.request(subject)
  return { subject, send: () => supertest(app)[method](path).set(withCookies(subject.cookies)).send(body ?? {}) }
}

function expectConfirmAsked(res: supertest.Response) {
  expect(res.status, JSON.stringify(res.body)).toBe(403)
  expect(res.body).toEqual({ message: expect.any(String), errors: { confirm: [expect.any(String)] } })
}

describe.each(guardedRoutes)('$name', (route) => {
  it('unconfirmed: 403 errors.confirm', async () => {
    const { subject, send } = await prepare(route)
    await unconfirm(subject.user.id)
    expectConfirmAsked(await send())
  })

  it('confirmed: it goes through', async () => {
    const { subject, send } = await prepare(route)
    await unconfirm(subject.user.id)
    expect((await confirm(subject.cookies, { password: PASSWORD })).status).toBe(200)
    const res = await send()
    expect(res.status, JSON.stringify(res.body)).toBe(route.success)
  })

  it('confirmation expired: 403 again', async () => {
    const { subject, send } = await prepare(route)
    await expire(subject.user.id)
    expectConfirmAsked(await send())
  })
})

describe('confirming it is you', () => {
  it('a sign-in confirms its new session for CONFIRM_TTL; the account offers its password', async () => {
    const { cookies } = await signedIn()
    const res = await confirmation(cookies)
    expect(res.status).toBe(200)
    expect(res.body.methods).toContain('password')
    const until = Date.parse(res.body.confirmed_until)
    expect(Math.abs(until - (Date.now() + 15 * 60_000))).toBeLessThan(10_000)
  })

  it('CONFIRM_TTL sets how long it lasts', async () => {
    const short = await t.build({ auth: { requireEmailVerification: false }, env: { CONFIRM_TTL: '90s' } })
    const user = await makeUser()
    const { cookies } = await login(short.app, user.email)
    const res = await supertest(short.app).get('/api/account/confirm').set(withCookies(cookies))
    expect(Math.abs(Date.parse(res.body.confirmed_until) - (Date.now() + 90_000))).toBeLessThan(10_000)
  })

  it('POST /api/account/confirm with the password confirms; a wrong one is 422 errors.password', async () => {
    const { user, cookies } = await signedIn()
    await unconfirm(user.id)
    expect((await confirmation(cookies)).body.confirmed_until).toBeNull()
    const wrong = await confirm(cookies, { password: 'not the password' })
    expect(wrong.status).toBe(422)
    expect(wrong.body.errors.password).toBeDefined()
    const res = await confirm(cookies, { password: PASSWORD })
    expect(res.status).toBe(200)
    expect(Date.parse(res.body.confirmed_until)).toBeGreaterThan(Date.now())
    expect((await confirmation(cookies)).body.confirmed_until).toBe(res.body.confirmed_until)
  })

  it('confirms again within the same second: the session is still there, whatever the count of rows changed', async () => {
    const { cookies } = await signedIn()
    // Both answers then hold the same confirmed_until, which MySQL would find unchanged.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const first = await confirm(cookies, { password: PASSWORD })
      const again = await confirm(cookies, { password: PASSWORD })
      expect([first.status, again.status]).toEqual([200, 200])
      expect(again.body.confirmed_until).toBe(first.body.confirmed_until)
    } finally {
      vi.useRealTimers()
    }
  })

  it('wrong confirmations count toward the 429 of the password-checked routes, right password or not', async () => {
    const { user, cookies } = await signedIn()
    await unconfirm(user.id)
    for (let i = 0; i < 5; i++) expect((await confirm(cookies, { password: `wrong ${i}` })).status).toBe(422)
    expect((await confirm(cookies, { password: PASSWORD })).status).toBe(429)
    const guarded = await supertest(app).delete('/api/account').set(withCookies(cookies)).send({ password: PASSWORD })
    expect(guarded.status).toBe(429)
  })

  it("a session that used up its wrong confirmations is 429; the user's other sessions still confirm", async () => {
    // A stolen session guessing must not keep the owner's own confirmations (a password change) at 429.
    const { user, cookies } = await signedIn()
    const owner = await login(app, user.email)
    await unconfirm(user.id)
    for (let i = 0; i < 5; i++) expect((await confirm(cookies, { password: `wrong ${i}` })).status).toBe(422)
    expect((await confirm(cookies, { password: PASSWORD })).status).toBe(429)
    expect((await confirm(owner.cookies, { password: PASSWORD })).status).toBe(200)
    const changed = await supertest(app).put('/api/account/password').set(withCookies(owner.cookies)).send({ current_password: PASSWORD, password: 'another long password 3' })
    expect(changed.status).toBe(200)
  })

  it('per user too, across sessions: new sessions do not buy more guesses than 20 a minute', async () => {
    const { user } = await signedIn()
    const answers: number[] = []
    for (let i = 0; i < 5; i++) {
      const { cookies } = await login(app, user.email)
      await unconfirm(user.id)
      for (let j = 0; j < 5; j++) answers.push((await confirm(cookies, { password: `wrong ${i}.${j}` })).status)
    }
    expect(answers.filter((status) => status === 422)).toHaveLength(20)
    expect(answers.slice(20)).toEqual([429, 429, 429, 429, 429])
  })

  it('a wrong confirmation leaves confirmation_failed, with the way tried and nothing typed, in the activity', async () => {
    const { user, cookies } = await signedIn()
    await unconfirm(user.id)
    expect((await confirm(cookies, { password: 'not the password' })).status).toBe(422)
    const rows = await SecurityEvent.findAll({ where: { userId: user.id, type: 'confirmation_failed' } })
    expect(rows.map((row) => JSON.parse(row.meta!))).toEqual([{ method: 'password' }])
    expect(JSON.stringify(rows)).not.toContain('not the password')
    const activity = await supertest(app).get('/api/account/activity').set(withCookies(cookies))
    expect(activity.body.data.data[0]).toMatchObject({ type: 'confirmation_failed', current: true, ip: expect.any(String) })
    // A right one leaves none.
    expect((await confirm(cookies, { password: PASSWORD })).status).toBe(200)
    expect(await SecurityEvent.count({ where: { userId: user.id, type: 'confirmation_failed' } })).toBe(1)
  })

  it("a guarded route's own password field still works, and confirms the session too", async () => {
    const { user, cookies } = await signedIn()
    await unconfirm(user.id)
    const wrong = await supertest(app).post('/api/account/email').set(withCookies(cookies)).send({ email: uniqueEmail(), password: 'not it' })
    expect(wrong.status).toBe(422)
    expect(wrong.body.errors.password).toBeDefined()
    const res = await supertest(app).post('/api/account/email').set(withCookies(cookies)).send({ email: uniqueEmail(), password: PASSWORD })
    expect(res.status).toBe(200)
    expect((await confirmation(cookies)).body.confirmed_until).not.toBeNull()
  })

  it('belongs to one session: another sign-in of the same user is not confirmed by it', async () => {
    const { user, cookies } = await signedIn()
    const other = await login(app, user.email)
    await unconfirm(user.id)
    expect((await confirm(cookies, { password: PASSWORD })).status).toBe(200)
    expect((await confirmation(other.cookies)).body.confirmed_until).toBeNull()
    expectConfirmAsked(await supertest(app).delete('/api/account/sessions').set(withCookies(other.cookies)).send({}))
  })

  it('a renewal (refresh) keeps it as it is: it neither extends nor carries it further', async () => {
    const { cookies } = await signedIn()
    const before = (await confirmation(cookies)).body.confirmed_until
    const refreshed = await supertest(app).post('/api/auth/refresh-token').set(withCookies(refreshOnly(cookies))).send({})
    expect(refreshed.status).toBe(200)
    const renewed = jar(refreshed, cookies)
    expect((await confirmation(renewed)).body.confirmed_until).toBe(before)
  })

  it('any revoking event ends it, the asking session included', async () => {
    const { user, cookies } = await signedIn()
    const other = await login(app, user.email)
    expect((await confirmation(cookies)).body.confirmed_until).not.toBeNull()
    // The other session signs itself out: a revoking event of this account.
    expect((await supertest(app).post('/api/auth/logout').set(withCookies(other.cookies))).status).toBe(204)
    expect((await confirmation(cookies)).body.confirmed_until).toBeNull()
    expectConfirmAsked(await supertest(app).delete('/api/account/sessions').set(withCookies(cookies)).send({}))
  })

  it('is not asked for on routes outside the list', async () => {
    const { user, cookies } = await signedIn('admin')
    await unconfirm(user.id)
    expect((await supertest(app).patch('/api/account/profile').set(withCookies(cookies)).send({ name: 'New Name' })).status).toBe(200)
    // An admin's edit of a user asks only when it changes the role.
    const other = await makeUser()
    expect((await supertest(app).patch(`/api/users/${other.id}`).set(withCookies(cookies)).send({ name: 'Renamed' })).status).toBe(200)
  })
})
