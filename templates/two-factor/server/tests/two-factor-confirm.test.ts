import { beforeAll, describe, expect, it } from 'vitest'
import { User } from '../src/kernel/models/index.js'
import { TwoFactorRecoveryCode } from '../src/features/two-factor/models/two-factor-recovery-code.js'
import { me } from './helpers/requests.js'
import { login, makeUser, useTestApps, type TestApp } from './helpers/test-app.js'
import { answerChallenge, codeFor, earlierCode, passwordStep, twoFactorApi, wrongCode } from './helpers/two-factor.js'

const t = useTestApps()

describe('POST /api/account/two-factor/confirm', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })

  it('a valid code turns it on with 8 recovery codes, stored hashed, and signs out every other session', async () => {
    const user = await makeUser()
    const here = (await login(app, user.email)).cookies
    const elsewhere = (await login(app, user.email)).cookies
    const api = twoFactorApi(app, here)
    const secret = (await api.enable()).body.secret as string

    const res = await api.confirm({ code: await earlierCode(secret) })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['recovery_codes'])
    const codes = res.body.recovery_codes as string[]
    expect(codes).toHaveLength(8)
    expect(new Set(codes).size).toBe(8)
    for (const code of codes) expect(code).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/)

    expect((await me(app, here)).body.user.twoFactorEnabled).toBe(true)
    expect((await me(app, elsewhere)).status).toBe(401)

    const row = await User.findByPk(user.id)
    expect(row!.twoFactorSecret).toMatch(/^v1\./)
    expect(row!.twoFactorSecret).not.toContain(secret)
    expect(row!.twoFactorPendingSecret).toBeNull()
    expect(row!.twoFactorConfirmedAt).toBeInstanceOf(Date)
    const stored = await TwoFactorRecoveryCode.findAll({ where: { userId: user.id } })
    expect(stored).toHaveLength(8)
    const normalised = codes.map((code) => code.replace(/-/g, ''))
    for (const { codeHash } of stored) {
      expect(codeHash).toMatch(/^[0-9a-f]{64}$/)
      for (const code of normalised) expect(codeHash).not.toContain(code)
    }
  })

  it('a wrong or malformed code is 422 errors.code and leaves it off', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const api = twoFactorApi(app, cookies)
    const secret = (await api.enable()).body.secret as string
    for (const code of [await wrongCode(secret), '12345', 'abcdef', '', 123456]) {
      const res = await api.confirm({ code })
      expect(res.status, String(code)).toBe(422)
      expect(Object.keys(res.body.errors)).toEqual(['code'])
    }
    expect((await me(app, cookies)).body.user.twoFactorEnabled).toBe(false)
  })

  it('without a pending secret is 422 errors.code', async () => {
    const { cookies } = await login(app, (await makeUser()).email)
    const res = await twoFactorApi(app, cookies).confirm({ code: '123456' })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['code'])
  })

  it('the code accepted at confirmation is refused at the login challenge (replay)', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const api = twoFactorApi(app, cookies)
    const secret = (await api.enable()).body.secret as string
    const code = await codeFor(secret, 0)
    await api.confirm({ code }).expect(200)

    const challenge = await passwordStep(app, user.email)
    const res = await answerChallenge(app, challenge.cookies, { code })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['code'])
    expect((await answerChallenge(app, challenge.cookies, { code: await codeFor(secret, 1) })).status).toBe(200)
  })

  it('two confirmations with the same code at once: exactly one turns it on', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const api = twoFactorApi(app, cookies)
    const secret = (await api.enable()).body.secret as string
    const code = await earlierCode(secret)
    const statuses = (await Promise.all([api.confirm({ code }), api.confirm({ code })])).map((res) => res.status).sort()
    expect(statuses).toEqual([200, 422])
    expect(await TwoFactorRecoveryCode.count({ where: { userId: user.id } })).toBe(8)
  })
})
