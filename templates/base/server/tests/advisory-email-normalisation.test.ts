import { randomUUID } from 'node:crypto'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { User } from '../src/kernel/models/index.js'
import { normaliseEmail } from '../src/kernel/services/email-address.js'
import { login, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

/**
 * The class of e-mail addresses checked before Unicode normalisation (Auth.js GHSA-7rqj-j65f-68wh):
 * an address is trimmed, composed (NFC) and lower-cased in one place (kernel/services/email-address.ts)
 * before it is validated, looked up or stored. A character outside ASCII that lower-cases into
 * ASCII (the Kelvin sign K into k, the dotted capital I into i and a dot) would name someone
 * else's mailbox, so such an address is refused wherever it comes in, never folded into the
 * other one; an address that stays outside ASCII is refused alike in both Unicode forms.
 */
const t = useTestApps()
let app: TestApp['app']
beforeAll(async () => {
  ;({ app } = await t.build({ auth: { requireEmailVerification: false } }))
})
const PASSWORD = 'a fine fresh secret'
const register = (email: string) => supertest(app).post('/api/auth/register').send({ name: 'N', email, password: PASSWORD })
const unique = (local: string) => `${local}-${randomUUID().slice(0, 8)}@example.test`
const LOOKALIKE = 'The e-mail address contains a character that only looks like another one: type it with plain letters.'

describe('e-mail addresses are normalised before any check', () => {
  it.each([
    ['a Kelvin sign', '\u212A', 'k'],
    ['a capital I with a dot', '\u0130', 'i'],
  ])('an address with %s is refused by register, login and forgot-password, and never reaches the plain account', async (_what, lookalike, plain) => {
    const email = unique(`${plain}im`)
    await register(email).expect(201)
    const spoofed = `${lookalike}${email.slice(1)}`
    for (const res of [
      await register(spoofed),
      await supertest(app).post('/api/auth/login').send({ email: spoofed, password: PASSWORD }),
      await supertest(app).post('/api/auth/forgot-password').send({ email: spoofed }),
      await supertest(app).post('/api/auth/resend-verification').send({ email: spoofed }),
    ]) {
      expect(res.status).toBe(422)
      expect(res.body.errors).toEqual({ email: [LOOKALIKE] })
    }
    expect(await User.count({ where: { email } })).toBe(1)
  })

  it('an e-mail change to a look-alike address is refused: 422 errors.email', async () => {
    const email = unique('owner')
    await register(email).expect(201)
    const { cookies } = await login(app, email, PASSWORD)
    const res = await supertest(app).post('/api/account/email').set(withCookies(cookies)).send({ email: `\u212A${unique('im').slice(1)}`, password: PASSWORD })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual({ email: [LOOKALIKE] })
  })

  it('an address in capitals and surrounded by spaces is the same account', async () => {
    const email = unique('kate')
    await register(email).expect(201)
    await supertest(app).post('/api/auth/login').send({ email: `  ${email.toUpperCase()} `, password: PASSWORD }).expect(200)
  })

  it.each([
    ['composed', 'j\u00f6rg'],
    ['decomposed', 'jo\u0308rg'],
  ])('an address outside ASCII (%s) is refused by register and login alike, and nothing is stored', async (_form, name) => {
    const email = unique(name)
    const registered = await register(email)
    expect(registered.status).toBe(422)
    expect(Object.keys(registered.body.errors)).toEqual(['email'])
    const loggedIn = await supertest(app).post('/api/auth/login').send({ email, password: PASSWORD })
    expect(loggedIn.status).toBe(422)
    expect(await User.count({ where: { email: email.normalize('NFC').toLowerCase() } })).toBe(0)
  })
})

describe('normaliseEmail, the one rule every way in uses (forms, providers)', () => {
  it('trims, composes and lower-cases; a letter outside ASCII stays outside it', () => {
    expect(normaliseEmail('  Kim@Example.TEST ')).toBe('kim@example.test')
    expect(normaliseEmail('JO\u0308RG@example.test')).toBe('j\u00f6rg@example.test')
    expect(normaliseEmail('J\u00d6RG@example.test')).toBe('j\u00f6rg@example.test')
  })

  it.each([
    ['KELVIN SIGN', '\u212Aim@example.test'],
    ['LATIN CAPITAL LETTER I WITH DOT ABOVE', '\u0130nge@example.test'],
    ['GREEK VARIA (composes to a backtick)', 'a\u1FEFb@example.test'],
    ['the Kelvin sign in the domain', 'kim@\u212Aiel.example'],
    ['a line break', 'kim@example.test\r\nBcc: all@example.test'],
  ])('refuses %s: null', (_name, email) => {
    expect(normaliseEmail(email)).toBeNull()
  })
})
