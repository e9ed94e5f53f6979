import { beforeAll, describe, expect, it } from 'vitest'
import { jar } from './helpers/cookies.js'
import { askForMail, emailSignInApi } from './helpers/passwordless.js'
import { me } from './helpers/requests.js'
import { makeUser, names, useTestApps, type TestApp } from './helpers/test-app.js'
import { answerChallenge, codeFor, withTwoFactor } from './helpers/two-factor.js'

// The advisory class "MFA bypass by a newer method": a way in added after two-factor must still
// ask for the second factor. A link or a code is a first factor, like a password.

const t = useTestApps()
let app: TestApp['app']
let api: ReturnType<typeof emailSignInApi>

beforeAll(async () => {
  ;({ app } = await t.build())
  api = emailSignInApi(app)
})

/** A user with two-factor on, and a sign-in mail asked for in a fresh browser. */
async function asked() {
  const user = await makeUser()
  const { secret } = await withTwoFactor(app, user.email)
  return { user, secret, ...(await askForMail(app, await t.mailServer(), user.email)) }
}

function expectChallenge(res: Awaited<ReturnType<typeof api.verify>>, before: Record<string, string>) {
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expect(res.body).toEqual({ two_factor: true })
  const cookies = jar(res, before)
  expect(cookies[names().access]).toBeUndefined()
  expect(cookies[names().refresh]).toBeUndefined()
  expect(cookies[names().twoFactor!]).toBeDefined()
  return cookies
}

describe('an account with two-factor on still passes its second factor after e-mail', () => {
  it('the link: a challenge, no session; the code from the authenticator then signs in', async () => {
    const { user, secret, token, cookies: asking } = await asked()
    const cookies = expectChallenge(await api.verify({ token }, asking), asking)
    expect((await me(app, cookies)).status).toBe(401)
    const done = await answerChallenge(app, cookies, { code: await codeFor(secret) })
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    expect((await me(app, jar(done, cookies)).expect(200)).body.user.id).toBe(user.id)
  })

  it('the mailed code: a challenge, no session', async () => {
    const { user, code, cookies: asking } = await asked()
    const cookies = expectChallenge(await api.verify({ email: user.email, code }, asking), asking)
    expect((await me(app, cookies)).status).toBe(401)
  })

  it('the link confirmed on another device: the asking browser gets the challenge, not a session', async () => {
    const { token, cookies: asking } = await asked()
    expect((await api.approve({ token })).status).toBe(200)
    expectChallenge(await api.status(asking), asking)
  })
})
