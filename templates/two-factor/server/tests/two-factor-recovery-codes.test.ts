import { beforeAll, describe, expect, it } from 'vitest'
import { TwoFactorRecoveryCode } from '../src/features/two-factor/models/two-factor-recovery-code.js'
import { jar } from './helpers/cookies.js'
import { me } from './helpers/requests.js'
import { login, makeUser, useTestApps, type TestApp } from './helpers/test-app.js'
import { answerChallenge, passwordStep, twoFactorApi, withTwoFactor } from './helpers/two-factor.js'

const t = useTestApps()

describe('recovery codes at the login challenge', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })

  it('one signs in instead of a code, once; case, spaces and dashes do not matter', async () => {
    const user = await makeUser()
    const { recoveryCodes } = await withTwoFactor(app, user.email)
    const [code, another] = recoveryCodes as [string, string]
    const first = await passwordStep(app, user.email)
    const res = await answerChallenge(app, first.cookies, { recovery_code: code })
    expect(res.status).toBe(200)
    expect(res.body.user.id).toBe(user.id)

    const second = await passwordStep(app, user.email)
    const reused = await answerChallenge(app, second.cookies, { recovery_code: code })
    expect(reused.status).toBe(422)
    expect(Object.keys(reused.body.errors)).toEqual(['recovery_code'])
    const typed = ` ${another.toLowerCase().replace(/-/g, ' ')} `
    expect((await answerChallenge(app, second.cookies, { recovery_code: typed })).status).toBe(200)
    expect(await TwoFactorRecoveryCode.count({ where: { userId: user.id } })).toBe(6)
  })

  it('an unknown recovery code is 422 errors.recovery_code and counts toward the 5 attempts', async () => {
    const user = await makeUser()
    const { recoveryCodes } = await withTwoFactor(app, user.email)
    const challenge = await passwordStep(app, user.email)
    for (let i = 0; i < 5; i++) {
      const res = await answerChallenge(app, challenge.cookies, { recovery_code: 'AAAA-BBBB-CCCC-DDDD' })
      expect(res.status).toBe(422)
      expect(Object.keys(res.body.errors)).toEqual(['recovery_code'])
    }
    expect((await answerChallenge(app, challenge.cookies, { recovery_code: recoveryCodes[0] })).status).toBe(401)
  })

  it('the same code used by two sign-ins at once: exactly one wins', async () => {
    const user = await makeUser()
    const { recoveryCodes } = await withTwoFactor(app, user.email)
    const a = await passwordStep(app, user.email)
    const b = await passwordStep(app, user.email)
    const results = await Promise.all([
      answerChallenge(app, a.cookies, { recovery_code: recoveryCodes[0] }),
      answerChallenge(app, b.cookies, { recovery_code: recoveryCodes[0] }),
    ])
    expect(results.map((res) => res.status).sort()).toEqual([200, 422])
  })

  it('a recovery code of another user does not pass', async () => {
    const alice = await makeUser()
    const bob = await makeUser()
    await withTwoFactor(app, alice.email)
    const bobs = await withTwoFactor(app, bob.email)
    const challenge = await passwordStep(app, alice.email)
    expect((await answerChallenge(app, challenge.cookies, { recovery_code: bobs.recoveryCodes[0] })).status).toBe(422)
    expect(await TwoFactorRecoveryCode.count({ where: { userId: bob.id } })).toBe(8)
  })
})

describe('POST /api/account/two-factor/recovery-codes', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })

  it('answers 8 new codes; the old ones stop working; every other session is signed out', async () => {
    const user = await makeUser()
    const { cookies, recoveryCodes: old } = await withTwoFactor(app, user.email)
    const elsewhere = jar(await answerChallenge(app, (await passwordStep(app, user.email)).cookies, { recovery_code: old[7] }).expect(200))

    const res = await twoFactorApi(app, cookies).regenerate()
    expect(res.status).toBe(200)
    const fresh = res.body.recovery_codes as string[]
    expect(fresh).toHaveLength(8)
    expect(fresh.filter((code) => old.includes(code))).toEqual([])

    expect((await me(app, cookies)).status).toBe(200)
    expect((await me(app, elsewhere)).status).toBe(401)

    const challenge = await passwordStep(app, user.email)
    expect((await answerChallenge(app, challenge.cookies, { recovery_code: old[0] })).status).toBe(422)
    expect((await answerChallenge(app, challenge.cookies, { recovery_code: fresh[0] })).status).toBe(200)
  })

  it('a wrong password is 422 errors.password and keeps the old codes', async () => {
    const user = await makeUser()
    const { cookies } = await withTwoFactor(app, user.email)
    const before = (await TwoFactorRecoveryCode.findAll({ where: { userId: user.id } })).map((row) => row.codeHash).sort()
    const res = await twoFactorApi(app, cookies).regenerate({ password: 'not my password' })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['password'])
    expect((await TwoFactorRecoveryCode.findAll({ where: { userId: user.id } })).map((row) => row.codeHash).sort()).toEqual(before)
  })

  it('is 409 while two-factor authentication is off', async () => {
    const { cookies } = await login(app, (await makeUser()).email)
    const res = await twoFactorApi(app, cookies).regenerate()
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ message: expect.any(String) })
  })
})
