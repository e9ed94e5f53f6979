import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { issueResetLink } from '../src/kernel/services/password-reset.js'
import { confirmLinkIn, linkIn, mailTo } from './helpers/mail.js'
import { account } from './helpers/requests.js'
import { login, makeUser, PASSWORD, uniqueEmail, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

/**
 * The class of one-time code and link replay races (better-auth #8067, Keycloak CVE-2026-4325):
 * the same link sent many times at once is used exactly once.
 */
const t = useTestApps()
let app: TestApp['app']
beforeAll(async () => {
  ;({ app } = await t.build({
    auth: { requireEmailVerification: true },
    rateLimits: { emailChangePerUser: { limit: 1000, windowMs: 60_000 }, accountWritesPerUser: { limit: 1000, windowMs: 60_000 } },
  }))
})
const statuses = (answers: supertest.Response[]) => answers.map((res) => res.status).sort()

describe('one-time link replay races', () => {
  it('a reset link sent eight times at once resets once', async () => {
    const user = await makeUser()
    const token = await issueResetLink(user)
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => supertest(app).post('/api/auth/reset-password').send({ email: user.email, token, password: `racing password ${i}` })),
    )
    expect(statuses(answers)).toEqual([200, ...Array(7).fill(422)])
  })

  it('a verification link sent eight times at once verifies once', async () => {
    const email = uniqueEmail('race')
    const arriving = (await t.mailServer()).next(mailTo(email))
    await supertest(app).post('/api/auth/register').send({ name: 'Race', email, password: 'racing password' }).expect(202)
    const link = linkIn(await arriving, 'verify-email')
    const answers = await Promise.all(Array.from({ length: 8 }, () => supertest(app).post('/api/auth/verify-email').send({ email, token: link.token })))
    expect(statuses(answers)).toEqual([200, ...Array(7).fill(422)])
  })

  it('an e-mail change link sent eight times at once changes the address once', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const next = uniqueEmail('next')
    const arriving = (await t.mailServer()).next(mailTo(next))
    await account(app, cookies).changeEmail({ email: next, password: PASSWORD }).expect(200)
    const { token } = confirmLinkIn(await arriving)
    const answers = await Promise.all(Array.from({ length: 8 }, () => supertest(app).post('/api/account/email/confirm').set(withCookies(cookies)).send({ token })))
    expect(answers.filter((res) => res.status === 200)).toHaveLength(1)
    for (const res of answers) expect([200, 401, 422]).toContain(res.status)
  })
})
