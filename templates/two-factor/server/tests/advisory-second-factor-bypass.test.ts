import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { setCookies } from './helpers/cookies.js'
import { me } from './helpers/requests.js'
import { makeUser, names, PASSWORD, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'
import { answerChallenge, codeFor, passwordStep, withTwoFactor } from './helpers/two-factor.js'

/**
 * The class of a sign-in path that skips a required second factor (Kratos GHSA-wc43-73w7-x2f5):
 * for an account with two-factor on, a right password (remembered or not) yields a challenge and
 * nothing that authenticates; the challenge's cookie authenticates nothing by itself; only a
 * right code turns it into a session.
 */
const t = useTestApps()
let app: TestApp['app']
beforeAll(async () => {
  ;({ app } = await t.build())
})

describe('no sign-in skips the second factor', () => {
  it.each([false, true])('a right password (remember %s) sets no auth cookie, and the challenge cookie authenticates nothing', async (remember) => {
    const user = await makeUser()
    const { secret } = await withTwoFactor(app, user.email)
    const res = await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD, remember })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ two_factor: true })
    const set = setCookies(res)
    expect(set.has(names().access)).toBe(false)
    expect(set.has(names().refresh)).toBe(false)

    const challenge = (await passwordStep(app, user.email, remember)).cookies
    expect((await me(app, challenge)).status).toBe(401)
    await supertest(app).post('/api/auth/refresh-token').set(withCookies(challenge)).expect(401)
    await supertest(app).get('/api/account/sessions').set(withCookies(challenge)).expect(401)

    const done = await answerChallenge(app, challenge, { code: await codeFor(secret) })
    expect(done.status).toBe(200)
    expect(setCookies(done).has(names().access)).toBe(true)
  })
})
