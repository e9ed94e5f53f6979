import type { Express } from 'express'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { SecurityEvent } from '../src/kernel/models/index.js'
import { codeFor, passwordStep, answerChallenge, withTwoFactor, wrongCode } from './helpers/two-factor.js'
import { login, makeUser, PASSWORD, useTestApps, withCookies } from './helpers/test-app.js'
import { confirm as confirmWith, unconfirm } from './helpers/confirmation.js'

const t = useTestApps()
let app: Express

beforeAll(async () => {
  ;({ app } = await t.build({ auth: { requireEmailVerification: false } }))
})

const confirm = (cookies: Record<string, string>, body: object) => confirmWith(app, cookies, body)
const confirmedUntil = async (cookies: Record<string, string>) =>
  (await supertest(app).get('/api/account/confirm').set(withCookies(cookies))).body.confirmed_until as string | null

/** A user with two-factor on, whose session is not confirmed (turning it on ended every confirmation). */
async function unconfirmedWithTwoFactor() {
  const user = await makeUser()
  const held = await withTwoFactor(app, user.email)
  expect(await confirmedUntil(held.cookies)).toBeNull()
  return { user, ...held }
}

describe('confirming it is you with a second factor', () => {
  it('offers totp to an account with two-factor on, and not to one without', async () => {
    const { cookies } = await unconfirmedWithTwoFactor()
    expect((await supertest(app).get('/api/account/confirm').set(withCookies(cookies))).body.methods).toEqual(['password', 'totp'])
    const without = await login(app, (await makeUser()).email)
    expect((await supertest(app).get('/api/account/confirm').set(withCookies(without.cookies))).body.methods).toEqual(['password'])
  })

  it('a code from the authenticator confirms; the same code again does not', async () => {
    const { cookies, secret } = await unconfirmedWithTwoFactor()
    const code = await codeFor(secret)
    const res = await confirm(cookies, { code })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(await confirmedUntil(cookies)).toBe(res.body.confirmed_until)
    const again = await confirm(cookies, { code })
    expect(again.status).toBe(422)
    expect(again.body.errors.code).toBeDefined()
  })

  it('a recovery code confirms, once', async () => {
    const { user, cookies, recoveryCodes } = await unconfirmedWithTwoFactor()
    expect((await confirm(cookies, { code: recoveryCodes[0] })).status).toBe(200)
    await unconfirm(user.id)
    const spent = await confirm(cookies, { code: recoveryCodes[0] })
    expect(spent.status).toBe(422)
    expect(spent.body.errors.code).toBeDefined()
  })

  it('wrong codes count toward the 429 of the password-checked routes, each a confirmation_failed', async () => {
    const { user, cookies, secret } = await unconfirmedWithTwoFactor()
    const wrong = await wrongCode(secret)
    for (let i = 0; i < 4; i++) expect((await confirm(cookies, { code: wrong })).status).toBe(422)
    expect((await confirm(cookies, { code: 'not-a-recovery-code' })).status).toBe(422)
    const failed = await SecurityEvent.findAll({ where: { userId: user.id, type: 'confirmation_failed' }, order: [['id', 'ASC']] })
    expect(failed.map((row) => JSON.parse(row.meta!).method)).toEqual(['totp', 'totp', 'totp', 'totp', 'recovery_code'])
    expect((await confirm(cookies, { code: await codeFor(secret) })).status).toBe(429)
    expect((await supertest(app).delete('/api/account/two-factor').set(withCookies(cookies)).send({ password: PASSWORD })).status).toBe(429)
  })

  it("wrong codes count toward the second factor's lockout, which then refuses the right code here and at sign-in", async () => {
    const loose = await t.build({ auth: { requireEmailVerification: false }, rateLimits: { accountPasswordPerSession: { limit: 100, windowMs: 60_000 }, accountPasswordPerUser: { limit: 100, windowMs: 60_000 } } })
    const user = await makeUser()
    const { cookies, secret } = await withTwoFactor(loose.app, user.email)
    const wrong = await wrongCode(secret)
    const send = (body: object) => supertest(loose.app).post('/api/account/confirm').set(withCookies(cookies)).send(body)
    for (let i = 0; i < 10; i++) expect((await send({ code: wrong })).status).toBe(422)
    expect(await SecurityEvent.count({ where: { userId: user.id, type: 'locked_out' } })).toBe(1)
    const locked = await send({ code: await codeFor(secret) })
    expect(locked.status).toBe(429)
    expect(locked.headers['retry-after']).toBeDefined()
    const challenge = await passwordStep(loose.app, user.email)
    expect((await answerChallenge(loose.app, challenge.cookies, { code: await codeFor(secret) })).status).toBe(429)
  })
})
