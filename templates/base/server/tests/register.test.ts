import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import type { MailMessage } from '../src/kernel/mail/mailer.js'
import { User } from '../src/kernel/models/index.js'
import { registerAddress } from '../src/kernel/services/email-verification.js'
import { hashPassword } from '../src/kernel/auth/passwords.js'
import { setCookies } from './helpers/cookies.js'
import { decodeJwt } from './helpers/jwt.js'
import { linkIn, mailTo } from './helpers/mail.js'
import { authConfig, makeUser, names, PASSWORD, uniqueEmail, useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

describe('register with e-mail verification off', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build({ auth: { requireEmailVerification: false } }))
  })

  it('creates a user with the user role and signs it in (201, user, access_token, both cookies)', async () => {
    const email = uniqueEmail('Reg')
    const res = await supertest(app).post('/api/auth/register').send({ name: 'Ada', email, password: 'password1' })
    expect(res.status).toBe(201)
    expect(res.body.user).toMatchObject({ name: 'Ada', email: email.toLowerCase(), role: 'user', emailVerifiedAt: null })
    expect(res.body.user).not.toHaveProperty('password')
    expect(typeof res.body.access_token).toBe('string')
    const cookies = setCookies(res)
    expect(cookies.get(names().access)?.maxAge).toBe(authConfig.accessExpirySeconds)
    expect(cookies.get(names().refresh)?.maxAge).toBe(authConfig.refreshExpirySeconds)
    expect(decodeJwt(res.body.access_token).payload.sub).toBe(String(res.body.user.id))

    const stored = await User.findOne({ where: { email: email.toLowerCase() } })
    expect(stored?.password).toMatch(/^\$2b\$\d\d\$/)
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

  it('answers a verified, an unverified and a free address alike, and mails the verified owner a choose-a-password link instead', async () => {
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
    expect(notice.body).toMatch(/verify-email\?token=[\w-]+&(amp;)?email=[^\s"<&]+&(amp;)?choose=1/)
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

  it('two registrations of a free address decided at the same moment: one link completes one of them, the other asks for a password', async () => {
    const { ctx } = await t.build({ auth: { requireEmailVerification: true }, worker: false })
    const sent: MailMessage[] = []
    const deps = { ...ctx, mailer: { transport: 'file' as const, send: async (message: MailMessage) => void sent.push(message), close() {} } }
    const email = uniqueEmail('race')
    const passwordHash = await hashPassword('password1')
    // The jobs of two registrations run in parallel (two workers): each one must see the other.
    await Promise.all([registerAddress(deps, email, { name: 'One', passwordHash }), registerAddress(deps, email, { name: 'Two', passwordHash })])
    expect(sent.map((message) => message.subject).sort()).toEqual(['Finish signing up', 'Verify your e-mail address'])
    expect(await User.count({ where: { email } })).toBe(1)
  })

  it('a pre-registration hijack fails: a second registration voids the first link and mails one that asks for a password', async () => {
    const mail = await t.mailServer()
    const victim = uniqueEmail('victim')
    const attackerLink = mail.next(mailTo(victim))
    await register(victim, 'attacker-password', 'Mallory').expect(202)
    const attackers = linkIn(await attackerLink, 'verify-email')

    const victimMail = mail.next(mailTo(victim))
    await register(victim, 'victim-password', 'Victor').expect(202)
    const received = await victimMail
    expect(received.subject).toBe('Finish signing up')
    expect(received.body).toMatch(/&(amp;)?choose=1/)
    const victims = linkIn(received, 'verify-email')
    expect(victims.token).not.toBe(attackers.token)

    await supertest(app).post('/api/auth/verify-email').send({ email: victim, token: attackers.token }).expect(422)
    // The link carries no password: one must be chosen on the page.
    const bare = await supertest(app).post('/api/auth/verify-email').send({ email: victim, token: victims.token })
    expect(bare.status).toBe(422)
    expect(Object.keys(bare.body.errors)).toEqual(['password'])

    const verified = await supertest(app).post('/api/auth/verify-email').send({ email: victim, token: victims.token, password: 'chosen-by-victim' })
    expect(verified.status).toBe(200)
    // The name of the registration that caused the link, unless the page sends another.
    expect(verified.body.user).toMatchObject({ name: 'Victor', email: victim })
    expect(verified.body.user.emailVerifiedAt).not.toBeNull()

    await supertest(app).post('/api/auth/login').send({ email: victim, password: 'chosen-by-victim' }).expect(200)
    // Still a pending registration for a day: the same answer as any address's pending registration.
    await supertest(app).post('/api/auth/login').send({ email: victim, password: 'attacker-password' }).expect(403)
    // The used link's registration is done with: its password is nobody's now.
    await supertest(app).post('/api/auth/login').send({ email: victim, password: 'victim-password' }).expect(422)
    await supertest(app).post('/api/auth/verify-email').send({ email: victim, token: victims.token, password: 'again' }).expect(422)
  })

  it('after the owner registers, another registration and a resend leave her mailbox no link that sets his password', async () => {
    const mail = await t.mailServer()
    const email = uniqueEmail('owner')
    const first = mail.next(mailTo(email))
    await register(email, 'owner-password', 'Olivia').expect(202)
    const owners = linkIn(await first, 'verify-email')
    await register(email, 'intruder-password', 'Ivan').expect(202)
    await mail.next(mailTo(email))
    const resent = mail.next(mailTo(email))
    await supertest(app).post('/api/auth/resend-verification').send({ email }).expect(200)
    const resend = await resent
    expect(resend.body).toMatch(/&(amp;)?choose=1/)
    const link = linkIn(resend, 'verify-email')

    // Her first link is void, and no link in her mailbox sets the intruder's password.
    await supertest(app).post('/api/auth/verify-email').send({ email, token: owners.token }).expect(422)
    for (const received of mail.received.filter(mailTo(email))) {
      const token = linkIn(received, 'verify-email').token
      const res = await supertest(app).post('/api/auth/verify-email').send({ email, token })
      expect(res.status).toBe(422)
    }
    await supertest(app).post('/api/auth/verify-email').send({ email, token: link.token, password: 'owner-chooses', name: 'Olivia' }).expect(200)
    await supertest(app).post('/api/auth/login').send({ email, password: 'owner-chooses' }).expect(200)
  })

  it('register then login answers the same 403 for a free address and for one with an account', async () => {
    const mail = await t.mailServer()
    const taken = await makeUser({ verified: true })
    const free = uniqueEmail('free')
    const answers = []
    for (const email of [free, taken.email]) {
      const arriving = mail.next(mailTo(email))
      await register(email, 'probe-password').expect(202)
      await arriving
      answers.push(await supertest(app).post('/api/auth/login').send({ email, password: 'probe-password' }))
    }
    expect(answers.map((res) => res.status)).toEqual([403, 403])
    expect(answers[1]!.body).toEqual(answers[0]!.body)
    expect(Object.keys(answers[0]!.body.errors)).toEqual(['email'])
    // The owner still signs in with her own password.
    await supertest(app).post('/api/auth/login').send({ email: taken.email, password: PASSWORD }).expect(200)
  })

  it('a login with an address nobody has is the usual 422, not a 500', async () => {
    const res = await supertest(app).post('/api/auth/login').send({ email: uniqueEmail('nobody'), password: 'whatever-1' })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['email'])
  })

  it('the account\'s own password always signs in: registered twice, then her first password chosen again on the newest link', async () => {
    const mail = await t.mailServer()
    const email = uniqueEmail('twice')
    const first = mail.next(mailTo(email))
    await register(email, 'her-first-password', 'Hana').expect(202)
    await first
    const second = mail.next(mailTo(email))
    await register(email, 'her-second-password', 'Hana').expect(202)
    const link = linkIn(await second, 'verify-email')
    await supertest(app).post('/api/auth/verify-email').send({ email, token: link.token, password: 'her-first-password' }).expect(200)
    // Her earlier registration is still pending with that same password: it must not lock her out.
    const res = await supertest(app).post('/api/auth/login').send({ email, password: 'her-first-password' })
    expect(res.status).toBe(200)
    expect(res.body.user.email).toBe(email)
    // The used link's registration is done with: its password is nobody's.
    await supertest(app).post('/api/auth/login').send({ email, password: 'her-second-password' }).expect(422)
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
