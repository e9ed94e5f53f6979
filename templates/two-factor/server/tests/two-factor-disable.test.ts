import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { User } from '../src/kernel/models/index.js'
import { TwoFactorRecoveryCode } from '../src/features/two-factor/models/two-factor-recovery-code.js'
import { me } from './helpers/requests.js'
import { makeUser, PASSWORD, useTestApps, type TestApp } from './helpers/test-app.js'
import { answerChallenge, codeFor, passwordStep, twoFactorApi, withTwoFactor } from './helpers/two-factor.js'
import { jar } from './helpers/cookies.js'

const t = useTestApps()

describe('DELETE /api/account/two-factor', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })

  it('turns it off: secret and codes gone, waiting sign-ins void, other sessions signed out, login back to one step', async () => {
    const user = await makeUser()
    const { cookies, secret } = await withTwoFactor(app, user.email)
    const elsewhere = jar(await answerChallenge(app, (await passwordStep(app, user.email)).cookies, { code: await codeFor(secret) }).expect(200))
    const waiting = await passwordStep(app, user.email)

    expect((await twoFactorApi(app, cookies).disable()).status).toBe(204)
    expect((await me(app, cookies)).body.user.twoFactorEnabled).toBe(false)
    expect((await me(app, elsewhere)).status).toBe(401)
    expect((await answerChallenge(app, waiting.cookies, { code: await codeFor(secret, 1) })).status).toBe(401)

    const row = await User.findByPk(user.id)
    expect([row!.twoFactorSecret, row!.twoFactorPendingSecret, row!.twoFactorConfirmedAt]).toEqual([null, null, null])
    expect(await TwoFactorRecoveryCode.count({ where: { userId: user.id } })).toBe(0)
    const res = await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD })
    expect(res.status).toBe(200)
    expect(res.body.user.twoFactorEnabled).toBe(false)
  })

  it('a wrong password is 422 errors.password and leaves it on', async () => {
    const user = await makeUser()
    const { cookies } = await withTwoFactor(app, user.email)
    const res = await twoFactorApi(app, cookies).disable({ password: 'not my password' })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['password'])
    expect((await me(app, cookies)).body.user.twoFactorEnabled).toBe(true)
    expect((await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD })).body).toEqual({ two_factor: true })
  })

  it('can be turned on again with a new secret', async () => {
    const user = await makeUser()
    const { cookies } = await withTwoFactor(app, user.email)
    await twoFactorApi(app, cookies).disable().expect(204)
    const again = await withTwoFactor(app, user.email)
    const challenge = await passwordStep(app, user.email)
    await answerChallenge(app, challenge.cookies, { code: await codeFor(again.secret) }).expect(200)
  })
})
