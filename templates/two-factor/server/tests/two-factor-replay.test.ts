import { describe, expect, it } from 'vitest'
import { makeUser, useTestApps } from './helpers/test-app.js'
import { answerChallenge, codeFor, passwordStep, withTwoFactor } from './helpers/two-factor.js'

const t = useTestApps()

// The guard is a condition on the user's last accepted step in the shared database, so it holds
// between instances with or without Redis.
describe('a code is accepted once, across instances', () => {
  it('a code accepted by one instance is 422 errors.code on another', async () => {
    const one = await t.build()
    const two = await t.build()
    const user = await makeUser()
    const { secret } = await withTwoFactor(one.app, user.email)
    const code = await codeFor(secret)
    await answerChallenge(one.app, (await passwordStep(one.app, user.email)).cookies, { code }).expect(200)

    const res = await answerChallenge(two.app, (await passwordStep(two.app, user.email)).cookies, { code })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['code'])
  })

  it('the same code on two instances at once: exactly one signs in', async () => {
    const one = await t.build()
    const two = await t.build()
    const user = await makeUser()
    const { secret } = await withTwoFactor(one.app, user.email)
    const a = await passwordStep(one.app, user.email)
    const b = await passwordStep(two.app, user.email)
    const code = await codeFor(secret)
    const results = await Promise.all([answerChallenge(one.app, a.cookies, { code }), answerChallenge(two.app, b.cookies, { code })])
    expect(results.map((res) => res.status).sort()).toEqual([200, 422])
  })

  it('a code of an earlier step than the last accepted one is refused too', async () => {
    const { app } = await t.build()
    const user = await makeUser()
    const { secret } = await withTwoFactor(app, user.email)
    await answerChallenge(app, (await passwordStep(app, user.email)).cookies, { code: await codeFor(secret, 1) }).expect(200)
    const res = await answerChallenge(app, (await passwordStep(app, user.email)).cookies, { code: await codeFor(secret, 0) })
    expect(res.status).toBe(422)
  })
})
