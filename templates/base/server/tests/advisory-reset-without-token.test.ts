import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { issueResetLink } from '../src/kernel/services/password-reset.js'
import { login, makeUser, PASSWORD, useTestApps, type TestApp } from './helpers/test-app.js'

/**
 * The class of resets completed without the mailed token (Keycloak CVE-2026-18963): no shape of
 * a missing, empty or foreign token resets anything, even while the account has a live link.
 */
const t = useTestApps()
let app: TestApp['app']
beforeAll(async () => {
  ;({ app } = await t.build())
})

describe('a reset without the mailed token', () => {
  it.each([
    ['no token', {}],
    ['an empty token', { token: '' }],
    ['a null token', { token: null }],
    ['a token array', { token: ['x'] }],
    ['a token object', { token: { $ne: '' } }],
    ['the word null', { token: 'null' }],
    ['the word undefined', { token: 'undefined' }],
  ])('%s: 422, and the password stays', async (_case, body) => {
    const user = await makeUser()
    await issueResetLink(user)
    const res = await supertest(app).post('/api/auth/reset-password').send({ email: user.email, password: 'taken over!', ...body })
    expect(res.status).toBe(422)
    await login(app, user.email, PASSWORD)
  })

  it('another account\'s live token resets neither', async () => {
    const [victim, attacker] = [await makeUser(), await makeUser()]
    const token = await issueResetLink(attacker)
    await supertest(app).post('/api/auth/reset-password').send({ email: victim.email, token, password: 'taken over!' }).expect(422)
    await login(app, victim.email, PASSWORD)
    await login(app, attacker.email, PASSWORD)
  })
})
