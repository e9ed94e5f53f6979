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
    ;({ app } = await t.build({ auth: { requireEmailVerification: true } }))
  })

  it('creates an unverified user, sets no cookie and mails a verification link through user:verify-email', async () => {
    const mail = await t.mailServer()
    const email = uniqueEmail('verify')
    const res = await supertest(app).post('/api/auth/register').send({ name: 'Dee', email, password: 'password1' })
    expect(res.status).toBe(201)
    expect(res.body).not.toHaveProperty('access_token')
    expect(res.headers['set-cookie'] ?? []).not.toEqual(expect.arrayContaining([expect.stringMatching(/_access=|_refresh=/)]))
    expect(res.body.user).toMatchObject({ email, emailVerifiedAt: null, role: 'user' })
    const link = linkIn(await mail.waitFor(mailTo(email)), 'verify-email')
    expect(link.email).toBe(email)
    expect(link.url.startsWith('http://localhost:3000/verify-email?token=')).toBe(true)
  })

  it('answers a taken e-mail exactly like a new one and mails the owner a notice instead', async () => {
    const mail = await t.mailServer()
    const owner = await makeUser({ verified: true })
    const fresh = uniqueEmail('fresh')
    const taken = await supertest(app).post('/api/auth/register').send({ name: 'Eve', email: owner.email, password: 'password1' })
    const created = await supertest(app).post('/api/auth/register').send({ name: 'Eve', email: fresh, password: 'password1' })
    expect(taken.status).toBe(201)
    expect(created.status).toBe(201)
    expect(Object.keys(taken.body).sort()).toEqual(Object.keys(created.body).sort())
    expect(Object.keys(taken.body.user).sort()).toEqual(userKeys)
    expect(taken.body.user).toMatchObject({ name: 'Eve', email: owner.email, role: 'user', emailVerifiedAt: null })
    expect(typeof taken.body.user.id).toBe('number')

    const notice = await mail.waitFor(mailTo(owner.email))
    expect(notice.subject).toBe('You already have an account')
    expect(notice.body).not.toMatch(/verify-email\?token=/)
    // The existing account is untouched.
    const stored = await User.findByPk(owner.id)
    expect(stored?.name).toBe('Test User')
    expect(await User.count({ where: { email: owner.email } })).toBe(1)
  })
})
