import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { linkIn, mailTo } from './helpers/mail.js'
import { makeUser, useTestApps, type TestApp } from './helpers/test-app.js'

/**
 * The class of link and base-URL poisoning through `Host` and `X-Forwarded-Host` (better-auth
 * GHSA-569q-mpph-wgww): links in mail are built from BASE_URL alone, whatever the request says,
 * also behind a trusted proxy.
 */
const t = useTestApps()
const poisoned = { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https', Forwarded: 'host=evil.example;proto=https' }

describe.each([
  ['no proxy trusted', {}],
  ['a trusted proxy', { TRUST_PROXY: 'true' }],
])('mail links with %s', (_case, env) => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build({ env, auth: { requireEmailVerification: true } }))
  })

  it('a reset link points at BASE_URL', async () => {
    const user = await makeUser()
    const arriving = (await t.mailServer()).next(mailTo(user.email))
    await supertest(app).post('/api/auth/forgot-password').set(poisoned).send({ email: user.email }).expect(200)
    const mail = await arriving
    expect(linkIn(mail, 'reset-password').url.startsWith('http://localhost:3000/reset-password?')).toBe(true)
    expect(mail.body).not.toContain('evil.example')
  })

  it('a verification link points at BASE_URL', async () => {
    const user = await makeUser({ verified: false })
    const arriving = (await t.mailServer()).next(mailTo(user.email))
    await supertest(app).post('/api/auth/resend-verification').set(poisoned).send({ email: user.email }).expect(200)
    const mail = await arriving
    expect(linkIn(mail, 'verify-email').url.startsWith('http://localhost:3000/verify-email?')).toBe(true)
    expect(mail.body).not.toContain('evil.example')
  })
})
