import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { User } from '../src/models/index.js'
import { setCookies } from './helpers/cookies.js'
import { decodeJwt } from './helpers/jwt.js'
import { linkIn, mailTo } from './helpers/mail.js'
import { authConfig, makeUser, names, uniqueEmail, useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
const userKeys = ['createdAt', 'email', 'emailVerifiedAt', 'id', 'name', 'role', 'roleId', 'updatedAt']

describe('register with e-mail verification off', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build({ auth: { requireEmailVerification: false } }))
  })

  it('creates a user with the user role and signs it in (201, user, access_token, both cookies)', async () => {
    const email = uniqueEmail('Reg')
    const res = await supertest(app).post('/api/auth/register').send({ name: 'Ada', email, password: 'password1' })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body.user).sort()).toEqual(userKeys)
    expect(res.body.user).toMatchObject({ name: 'Ada', email: email.toLowerCase(), role: 'user', emailVerifiedAt: null })
    expect(res.body.user).not.toHaveProperty('password')
    expect(typeof res.body.access_token).toBe('string')
    const cookies = setCookies(res)
    expect(cookies.get(names().access)?.maxAge).toBe(authConfig.accessExpirySeconds)
    expect(cookies.get(names().refresh)?.maxAge).toBe(authConfig.refreshExpirySeconds)
    expect(decodeJwt(res.body.access_token).payload.sub).toBe(String(res.body.user.id))

    const stored = await User.findOne({ where: { email: email.toLowerCase() } })
    expect(stored?.password.startsWith('$2b$10$')).toBe(true)
  })

  it('refuses a taken e-mail (any case) with 422 errors.email', async () => {
    const user = await makeUser()
    const res = await supertest(app).post('/api/auth/register').send({ name: 'B', email: user.email.toUpperCase(), password: 'password1' })
    expect(res.status).toBe(422)
    expect(res.body.errors.email).toEqual(['The email has already been taken.'])
    expect(setCookies(res).has(names().access)).toBe(false)
  })

  it('validates every field with dotted keys', async () => {
    const res = await supertest(app).post('/api/auth/register').send({ name: '', email: 'not-an-email', password: 'short' })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'name', 'password'])
    expect(typeof res.body.message).toBe('string')
  })

  it('refuses a name with a NUL character (422 errors.name)', async () => {
    const res = await supertest(app).post('/api/auth/register').send({ name: 'A\u0000B', email: uniqueEmail('nul'), password: 'password1' })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['name'])
  })

  it('does not dispatch a verification mail', async () => {
    const mail = await t.mailServer()
    const email = uniqueEmail('noverify')
    await supertest(app).post('/api/auth/register').send({ name: 'C', email, password: 'password1' }).expect(201)
    await expect(mail.waitFor(mailTo(email), 400)).rejects.toThrow(/No matching mail/)
  })
})

describe('register with e-mail verification on', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build({ auth: { requireEmailVerification: true }, rateLimits: { registerPerIp: { limit: 1000, windowMs: 60_000 } } }))
  })
  const register = (email: string, password = 'password1', name = 'Dee') =>
    supertest(app).post('/api/auth/register').send({ name, email, password })

  it('answers 202 {message} with no cookie, creates an unverified user and mails a verification link through user:verify-email', async () => {
    const mail = await t.mailServer()
    const email = uniqueEmail('verify')
    const res = await register(email)
    expect(res.status).toBe(202)
    expect(res.body).toEqual({ message: expect.any(String) })
    expect(res.headers['set-cookie']).toBeUndefined()
    const link = linkIn(await mail.waitFor(mailTo(email)), 'verify-email')
    expect(link.email).toBe(email)
    expect(link.url.startsWith('http://localhost:3000/verify-email?token=')).toBe(true)
    expect(await User.findOne({ where: { email } })).toMatchObject({ name: 'Dee', emailVerifiedAt: null })
    // Not usable before it is verified: 403 after the right password.
    const login = await supertest(app).post('/api/auth/login').send({ email, password: 'password1' })
    expect(login.status).toBe(403)
  })

  it('answers a verified, an unverified and a free address alike, and mails the verified owner a notice instead', async () => {
    const mail = await t.mailServer()
    const verified = await makeUser({ verified: true })
    const unverified = await makeUser({ verified: false })
    const fresh = uniqueEmail('fresh')
    const answers = [await register(verified.email), await register(unverified.email), await register(fresh)]
    for (const res of answers) {
      expect(res.status).toBe(202)
      expect(res.headers['set-cookie']).toBeUndefined()
    }
    expect(answers[1]!.body).toEqual(answers[0]!.body)
    expect(answers[2]!.body).toEqual(answers[0]!.body)

    const notice = await mail.waitFor(mailTo(verified.email))
    expect(notice.subject).toBe('You already have an account')
    expect(notice.body).not.toMatch(/verify-email\?token=/)
    linkIn(await mail.waitFor(mailTo(unverified.email)), 'verify-email')
    // The free address's job (which creates its account) is done too, before the next test counts ids.
    linkIn(await mail.waitFor(mailTo(fresh)), 'verify-email')
    // Neither existing account is touched by the registration itself.
    for (const user of [verified, unverified]) {
      const stored = await User.findByPk(user.id)
      expect(stored?.name).toBe('Test User')
      expect(stored?.password).toBe(user.password)
      expect(await User.count({ where: { email: user.email } })).toBe(1)
    }
  })

  it('leaves the id sequence where a free address would: a taken address creates no row', async () => {
    const mail = await t.mailServer()
    const taken = await makeUser({ verified: true })
    const before = (await User.max<number, User>('id')) ?? 0
    await register(taken.email).expect(202)
    await mail.waitFor(mailTo(taken.email))
    expect((await User.max<number, User>('id')) ?? 0).toBe(before)
  })

  it('takes the same time for known and unknown addresses (medians of 30 each within 5 ms)', async () => {
    const mail = await t.mailServer()
    const known = await Promise.all(Array.from({ length: 30 }, () => makeUser({ verified: true })))
    const timings = { known: [] as number[], unknown: [] as number[] }
    await register(uniqueEmail('warm-up')).expect(202)
    for (let i = 0; i < 30; i++) {
      for (const [kind, email] of [['known', known[i]!.email], ['unknown', uniqueEmail('timing')]] as const) {
        const arrived = mail.next(mailTo(email))
        const started = performance.now()
        await register(email).expect(202)
        timings[kind].push(performance.now() - started)
        // The job's work (a notice, or an account and a link) is done before the next sample.
        await arrived
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
    const result = { knownMs: median(timings.known), unknownMs: median(timings.unknown) }
    console.log(`register timing medians over 30 each: known ${result.knownMs.toFixed(1)} ms, unknown ${result.unknownMs.toFixed(1)} ms`)
    expect(Math.abs(result.knownMs - result.unknownMs)).toBeLessThanOrEqual(5)
  }, 60_000)

  it('a pre-registration hijack fails: the victim\'s link sets the victim\'s name and password and voids the attacker\'s', async () => {
    const mail = await t.mailServer()
    const victim = uniqueEmail('victim')
    const attackerLink = mail.next(mailTo(victim))
    await register(victim, 'attacker-password', 'Mallory').expect(202)
    const attackers = linkIn(await attackerLink, 'verify-email')

    const victimLink = mail.next(mailTo(victim))
    await register(victim, 'victim-password', 'Victor').expect(202)
    const victims = linkIn(await victimLink, 'verify-email')
    expect(victims.token).not.toBe(attackers.token)
    // Registering again replaced nothing yet: the account still holds the first registration.
    expect((await User.findOne({ where: { email: victim } }))?.name).toBe('Mallory')

    const verified = await supertest(app).post('/api/auth/verify-email').send({ email: victim, token: victims.token })
    expect(verified.status).toBe(200)
    expect(verified.body.user).toMatchObject({ name: 'Victor', email: victim })
    expect(verified.body.user.emailVerifiedAt).not.toBeNull()

    await supertest(app).post('/api/auth/login').send({ email: victim, password: 'victim-password' }).expect(200)
    await supertest(app).post('/api/auth/login').send({ email: victim, password: 'attacker-password' }).expect(422)
    await supertest(app).post('/api/auth/verify-email').send({ email: victim, token: attackers.token }).expect(422)
  })

  it('refuses names with line breaks or other control characters (422 errors.name), so none reaches a mail', async () => {
    for (const name of ['Eve\nBcc: all@example.test', 'Eve\r\nX', 'Tab\tbed', 'Del\u007f', 'Next\u0085Line', 'Line\u2028Sep']) {
      const res = await register(uniqueEmail('ctl'), 'password1', name)
      expect(res.status, JSON.stringify(name)).toBe(422)
      expect(Object.keys(res.body.errors)).toEqual(['name'])
    }
    await register(uniqueEmail('ok'), 'password1', 'Zoë O\'Brien-Łukasz 山田').expect(202)
  })
})
