import { randomUUID } from 'node:crypto'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { User } from '../src/models/index.js'
import { login, useTestApps, type TestApp } from './helpers/test-app.js'

/**
 * The class of e-mail addresses checked before Unicode normalisation (Auth.js GHSA-7rqj-j65f-68wh):
 * an address is trimmed and lower-cased before it is validated, looked up or stored, so a
 * character that folds to ASCII (the Kelvin sign K folds to k) names the same account everywhere,
 * and an address that stays outside ASCII (composed or decomposed) is refused alike, never stored
 * beside its look-alike.
 */
const t = useTestApps()
let app: TestApp['app']
beforeAll(async () => {
  ;({ app } = await t.build({ auth: { requireEmailVerification: false } }))
})
const register = (email: string) => supertest(app).post('/api/auth/register').send({ name: 'N', email, password: 'a fine fresh secret' })

describe('e-mail addresses are normalised before any check', () => {
  it('a Kelvin sign folds to k: the address is taken, and signs in to the same account', async () => {
    const plain = `kate-${randomUUID().slice(0, 8)}@example.test`
    await register(plain).expect(201)
    const lookalike = `\u212A${plain.slice(1)}`
    const again = await register(lookalike)
    expect(again.status).toBe(422)
    expect(Object.keys(again.body.errors)).toEqual(['email'])
    const signedIn = await login(app, lookalike, 'a fine fresh secret')
    expect(signedIn.res.body.user.email).toBe(plain)
    expect(await User.count({ where: { email: plain } })).toBe(1)
  })

  it.each([
    ['composed', 'j\u00f6rg'],
    ['decomposed', 'jo\u0308rg'],
  ])('an address outside ASCII (%s) is refused by register and login alike, and nothing is stored', async (_form, name) => {
    const email = `${name}-${randomUUID().slice(0, 8)}@example.test`
    const registered = await register(email)
    expect(registered.status).toBe(422)
    expect(Object.keys(registered.body.errors)).toEqual(['email'])
    const loggedIn = await supertest(app).post('/api/auth/login').send({ email, password: 'a fine fresh secret' })
    expect(loggedIn.status).toBe(422)
    expect(await User.count({ where: { email: email.toLowerCase() } })).toBe(0)
  })
})
