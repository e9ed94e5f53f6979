import { randomUUID } from 'node:crypto'
import type { Express } from 'express'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import type { AppContext } from '../src/kernel/context.js'
import { forDialect } from '../src/kernel/db/sql.js'
import { EmailChangeToken, EmailVerificationToken, OutboxJob, Session, User } from '../src/kernel/models/index.js'
import { hashToken } from '../src/kernel/services/one-time-tokens.js'
import { issueResetLink } from '../src/kernel/services/password-reset.js'
import { jar } from './helpers/cookies.js'
import { confirmLinkIn, linkIn, mailTo, type ReceivedMail } from './helpers/mail.js'
import { freePort } from './helpers/processes.js'
import { account, within } from './helpers/requests.js'
import { login, makeUser, PASSWORD, uniqueEmail, useTestApps, withCookies } from './helpers/test-app.js'
import { jobsDone } from './helpers/jobs.js'

/** Attacks on pending registrations, mail jobs, mail limits, names in mail and the device line, each replayed through real HTTP, database and SMTP. */
const t = useTestApps()

let app: Express
let ctx: AppContext
beforeAll(async () => {
  ;({ app, ctx } = await t.build({ auth: { requireEmailVerification: true } }))
})

const register = (email: string, password: string, name: string) => supertest(app).post('/api/auth/register').send({ name, email, password })


async function mailsTo(email: string, subject: string, of = ctx): Promise<ReceivedMail[]> {
  await jobsDone(of)
  return (await t.mailServer()).received.filter((mail) => mailTo(email)(mail) && mail.subject === subject)
}

describe('INFO: the Device: line of notices is free text taken from the User-Agent', () => {
  it.each(['Mozilla/5.0 (this was us, no action needed)', 'this was us, no action needed/1.0 (X11; Linux x86_64)'])(
    'a User-Agent of %j gives a notice whose Device line says none of it',
    async (agent) => {
      const user = await makeUser()
      const { cookies } = await login(app, user.email)
      await supertest(app)
        .put('/api/account/password')
        .set(withCookies(cookies))
        .set('User-Agent', agent)
        .send({ current_password: PASSWORD, password: 'the new secret' })
        .expect(200)
      const [notice] = await mailsTo(user.email, 'Your password was changed')
      const device = /^Device: (.*)$/m.exec(notice!.body)![1]!.trim()
      expect(device).not.toMatch(/this was us|no action|Mozilla/i)
      expect(['Unknown device', 'Linux']).toContain(device)
    },
  )

  it('the activity page shows no agent text either', async () => {
    const user = await makeUser()
    const agent = 'Mozilla/5.0 (this was us, no action needed)'
    const res = await supertest(app).post('/api/auth/login').set('User-Agent', agent).send({ email: user.email, password: PASSWORD }).expect(200)
    const cookies = jar(res)
    const activity = await supertest(app).get('/api/account/activity').set(withCookies(cookies)).expect(200)
    const devices = (activity.body.data.data as Array<{ device: string }>).map((event) => event.device)
    expect(devices.length).toBeGreaterThan(0)
    for (const device of devices) expect(device).toBe('Unknown device')
  })
})

describe('LOW: each address can be mailed 15 times a minute with no longer window, and anyone can keep its owner at 429', () => {
  const from = (target: Express, ip: string, route: string, email: string) =>
    supertest(target).post(`/api/auth/${route}`).set('X-Forwarded-For', ip).send({ email })

  it.each(['forgot-password', 'resend-verification'])('%s: a stranger who used up his quota for the owner\'s address does not block her own request', async (route) => {
    const { app: proxied } = await t.build({ env: { TRUST_PROXY: '1' } })
    const owner = await makeUser()
    const stranger = '198.51.100.66'
    let throttled = false
    for (let i = 0; i < 20 && !throttled; i++) throttled = (await from(proxied, stranger, route, owner.email)).status === 429
    expect(throttled, 'the stranger is throttled').toBe(true)
    await from(proxied, '203.0.113.7', route, owner.email).expect(200)
  })

  it.each(['forgot-password', 'resend-verification', 'register'])('%s: an address is mailed a bounded number of times an hour from one client, not only a minute', async (route) => {
    const { app: limited } = await t.build({
      auth: { requireEmailVerification: true },
      rateLimits: { mailPerEmailIp: { limit: 100, windowMs: 60_000 }, registerPerEmailIp: { limit: 100, windowMs: 60_000 }, mailPerEmailIpHourly: { limit: 3, windowMs: 3_600_000 }, registerPerEmailIpHourly: { limit: 3, windowMs: 3_600_000 } },
    })
    const email = (await makeUser()).email
    const send = () => supertest(limited).post(`/api/auth/${route}`).send({ email, name: 'R', password: 'long enough password' })
    for (let i = 0; i < 3; i++) expect((await send()).status).toBeLessThan(300)
    const res = await send()
    expect(res.status).toBe(429)
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(60)
  })
})

describe('MED: pre-registration survives the owner\'s own reset', () => {
  it('the attack\'s steps: a stranger registers the address first, the owner resets the password, then asks for a new link', async () => {
    const mail = await t.mailServer()
    const email = uniqueEmail('owner')
    const attackerMail = mail.next(mailTo(email))
    await register(email, 'attacker password', 'Mallory').expect(202)
    const attackers = linkIn(await attackerMail, 'verify-email')
    const user = (await User.findOne({ where: { email } }))!
    expect(user.emailVerifiedAt).toBeNull()

    // The owner: "Forgot password?", then the link in her mailbox.
    const resetMail = mail.next((m) => mailTo(email)(m) && m.subject === 'Reset your password')
    await supertest(app).post('/api/auth/forgot-password').send({ email }).expect(200)
    const reset = linkIn(await resetMail, 'reset-password')
    await supertest(app).post('/api/auth/reset-password').send({ email, token: reset.token, password: 'owner password' }).expect(200)

    // The reset proved the mailbox: the address is verified, the stranger's registration is gone.
    expect((await User.findByPk(user.id))!.emailVerifiedAt).not.toBeNull()
    expect(await EmailVerificationToken.count({ where: { userId: user.id } })).toBe(0)
    // Nor does the name the stranger chose greet her from now on.
    expect((await User.findByPk(user.id))!.name).not.toBe('Mallory')
    await login(app, email, 'owner password')
    // Login's 403 rule no longer counts it: the stranger's password is just a wrong one.
    await supertest(app).post('/api/auth/login').send({ email, password: 'attacker password' }).expect(422)
    await supertest(app).post('/api/auth/verify-email').send({ email, token: attackers.token }).expect(422)

    // "Send the link again": whatever arrives, no link of it sets the stranger's password.
    await jobsDone(ctx)
    const before = mail.received.length
    await supertest(app).post('/api/auth/resend-verification').send({ email }).expect(200)
    await jobsDone(ctx)
    for (const received of mail.received.slice(before).filter(mailTo(email))) {
      expect(received.body).not.toContain('Mallory')
      const link = linkIn(received, 'verify-email')
      await supertest(app).post('/api/auth/verify-email').send({ email, token: link.token }).expect(422)
    }
    await supertest(app).post('/api/auth/login').send({ email, password: 'attacker password' }).expect(422)
    await login(app, email, 'owner password')
  })

  it('where verification is optional, a reset verifies an unverified account and keeps its name (its owner signed up and uses it)', async () => {
    const { app: optional } = await t.build({ auth: { requireEmailVerification: false } })
    const user = await makeUser({ verified: false, name: 'Nora Newcomer' })
    const token = await issueResetLink(user)
    await supertest(optional).post('/api/auth/reset-password').send({ email: user.email, token, password: 'owner password' }).expect(200)
    const after = (await User.findByPk(user.id))!
    expect(after.emailVerifiedAt).not.toBeNull()
    expect(after.name).toBe('Nora Newcomer')
  })

  it('a reset of a verified account leaves a stranger\'s pending registration answering login\'s 403 rule', async () => {
    const owner = await makeUser()
    await register(owner.email, 'stranger password', 'Mallory').expect(202)
    await jobsDone(ctx)
    const token = await issueResetLink(owner)
    await supertest(app).post('/api/auth/reset-password').send({ email: owner.email, token, password: 'owner password' }).expect(200)
    await supertest(app).post('/api/auth/login').send({ email: owner.email, password: 'stranger password' }).expect(403)
  })
})

describe('unverified accounts with no pending registration left are deleted after 24 h', () => {
  const hours = (n: number) => new Date(Date.now() - n * 3_600_000)
  const backdate = async (user: User, at: Date) => {
    const sequelize = User.sequelize!
    await sequelize.query(forDialect('UPDATE users SET "createdAt" = ? WHERE id = ?', sequelize.getDialect()), { replacements: [at, user.id] })
  }
  const prune = async (of: AppContext) => {
    await of.queue.dispatch('security:prune-events', {})
    await jobsDone(of)
  }

  it('by the hourly pruning job, so a new registration of the address starts afresh', async () => {
    const abandoned = await makeUser({ verified: false, name: 'Mallory' })
    await backdate(abandoned, hours(25))
    // Its registration expired (or a reset or a used link ended it): nothing is pending.
    await EmailVerificationToken.create({ userId: abandoned.id, email: abandoned.email, tokenHash: hashToken(randomUUID()), expiresAt: hours(1), name: 'Mallory', password: 'x' })

    const pending = await makeUser({ verified: false })
    await backdate(pending, hours(25))
    await EmailVerificationToken.create({ userId: pending.id, email: pending.email, tokenHash: hashToken(randomUUID()), expiresAt: new Date(Date.now() + 3_600_000), name: 'P', password: 'x' })

    const recent = await makeUser({ verified: false })
    await backdate(recent, hours(23))
    const verified = await makeUser()
    await backdate(verified, hours(25))
    const signedIn = await makeUser({ verified: false })
    await backdate(signedIn, hours(25))
    await Session.create({ id: randomUUID(), userId: signedIn.id, remember: false, ip: null, userAgent: null, createdAt: hours(25), lastUsedAt: hours(25), expiresAt: hours(24) })

    await prune(ctx)
    expect(await User.findByPk(abandoned.id)).toBeNull()
    for (const kept of [pending, recent, verified, signedIn]) expect(await User.findByPk(kept.id), kept.email).not.toBeNull()

    // The address is free again: a registration gets its own link, greeting its own name.
    const arriving = (await t.mailServer()).next(mailTo(abandoned.email))
    await register(abandoned.email, 'owner password', 'Olivia').expect(202)
    const received = await arriving
    expect(received.subject).toBe('Verify your e-mail address')
    expect(received.body).not.toContain('Mallory')
  })

  it('not where verification is optional: an unverified account there is a working one', async () => {
    const optional = await t.build({ auth: { requireEmailVerification: false } })
    const user = await makeUser({ verified: false })
    await backdate(user, hours(48))
    await prune(optional.ctx)
    expect(await User.findByPk(user.id)).not.toBeNull()
  })
})

describe('MED: the mail job mints the e-mail change token', () => {
  /**
   * An SMTP outage: `request` is accepted by an instance whose mail cannot go out, whose jobs then
   * wait in the outbox; `release` is SMTP coming back (another instance of the same queue takes
   * the jobs over) and resolves once every one of them is done.
   */
  async function whileSmtpIsDown(request: (held: Express) => Promise<unknown>): Promise<{ queue: string; release: () => Promise<void> }> {
    const held = await t.build({ auth: { requireEmailVerification: true }, env: { SMTP_URL: `smtp://127.0.0.1:${await freePort()}` }, retryBackoffMs: 600_000 })
    await request(held.app)
    await within(10_000, async () => held.logger.lines.some((line) => line.includes('failed (attempt 1/3)')))
    await held.ctx.close()
    const queue = held.ctx.keyPrefix
    return {
      queue,
      release: async () => {
        await OutboxJob.update({ availableAt: new Date() }, { where: { queue, finishedAt: null, failedAt: null } })
        await jobsDone((await t.build({ auth: { requireEmailVerification: true }, keyPrefix: queue })).ctx)
      },
    }
  }

  const changePassword = (cookies: Record<string, string>) => account(app, cookies).changePassword({ current_password: PASSWORD, password: 'the new secret' }).expect(200)

  it('the attack\'s steps: a change to a stranger\'s address is accepted, SMTP is down, the owner changes her password, SMTP returns: no working link', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const attacker = uniqueEmail('attacker')
    const { release } = await whileSmtpIsDown((held) => account(held, cookies).changeEmail({ email: attacker, password: PASSWORD }).expect(200))
    await changePassword(cookies)
    const before = (await t.mailServer()).received.length
    await release()
    const arrived = (await t.mailServer()).received.slice(before).filter(mailTo(attacker))
    expect(arrived).toEqual([])
    expect(await EmailChangeToken.count({ where: { userId: user.id } })).toBe(0)
  })

  it('accepted means made: the pending change exists before its job runs, and neither it nor the outbox holds a token or an address for the job', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const { queue, release } = await whileSmtpIsDown((held) => account(held, cookies).changeEmail({ email: uniqueEmail('new'), password: PASSWORD }).expect(200))
    const row = (await EmailChangeToken.findOne({ where: { userId: user.id } }))!
    expect(row.tokenHash).not.toMatch(/^[0-9a-f]{64}$/)
    const job = (await OutboxJob.findOne({ where: { queue, name: 'user:confirm-email' } }))!
    expect(JSON.parse(job.payload)).toEqual({ tokenId: row.id, locale: 'en' })
    await release()
    expect((await EmailChangeToken.findByPk(row.id))!.tokenHash).toMatch(/^[0-9a-f]{64}$/)
  })

  it('without anything voiding it, the held change is mailed once SMTP is back, and its link works', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const moved = uniqueEmail('moved')
    const { queue, release } = await whileSmtpIsDown((held) => account(held, cookies).changeEmail({ email: moved, password: PASSWORD }).expect(200))
    await release()
    const [mail] = (await t.mailServer()).received.filter(mailTo(moved))
    await supertest(app).post('/api/account/email/confirm').send({ token: confirmLinkIn(mail!).token }).expect(200)
    expect((await User.findByPk(user.id))!.email).toBe(moved)
    expect((await OutboxJob.findAll({ where: { queue } })).map((row) => row.payload)).toEqual(expect.arrayContaining(['{}']))
  })

  it('a newer request voids the older one before its job runs', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const first = uniqueEmail('first')
    const second = uniqueEmail('second')
    const { release } = await whileSmtpIsDown(async (held) => {
      await account(held, cookies).changeEmail({ email: first, password: PASSWORD }).expect(200)
      await account(held, cookies).changeEmail({ email: second, password: PASSWORD }).expect(200)
    })
    await release()
    const received = (await t.mailServer()).received
    expect(received.filter(mailTo(first))).toEqual([])
    expect(received.filter(mailTo(second))).toHaveLength(1)
  })

  it.each([
    ['forgot-password', 'Reset your password'],
    ['resend-verification', 'You already have an account'],
  ])('%s: a link asked for before the owner changed her password is not mailed after it', async (route, subject) => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const { release } = await whileSmtpIsDown((held) => supertest(held).post(`/api/auth/${route}`).send({ email: user.email }).expect(200))
    await changePassword(cookies)
    await release()
    expect((await t.mailServer()).received.filter((mail) => mailTo(user.email)(mail) && mail.subject === subject)).toEqual([])
  })

  it.each([
    ['forgot-password', 'Reset your password'],
    ['resend-verification', 'You already have an account'],
  ])('%s: with nothing voided meanwhile, the held link is mailed once SMTP is back', async (route, subject) => {
    const user = await makeUser()
    const { release } = await whileSmtpIsDown((held) => supertest(held).post(`/api/auth/${route}`).send({ email: user.email }).expect(200))
    await release()
    expect((await t.mailServer()).received.filter((mail) => mailTo(user.email)(mail) && mail.subject === subject)).toHaveLength(1)
  })
})

describe('LOW: stranger-chosen names appear in mail sent to other people', () => {
  const stranger = 'Call +1 555 0100 now to keep your account'

  it('a registration of a verified account\'s address: its owner is greeted by her own name, never the registration\'s', async () => {
    const owner = await makeUser({ name: 'Olivia' })
    const mail = await t.mailServer()
    const arriving = mail.next(mailTo(owner.email))
    await register(owner.email, 'stranger password', stranger).expect(202)
    const received = await arriving
    expect(received.subject).toBe('You already have an account')
    expect(received.body).toContain('Hello Olivia,')
    expect(received.body).not.toContain(stranger)

    const again = mail.next(mailTo(owner.email))
    await supertest(app).post('/api/auth/resend-verification').send({ email: owner.email }).expect(200)
    const resent = await again
    expect(resent.body).toContain('Hello Olivia,')
    expect(resent.body).not.toContain(stranger)

    // She follows the resent link (no registration caused it) without typing a name: her account keeps hers.
    const link = linkIn(resent, 'verify-email')
    await supertest(app).post('/api/auth/verify-email').send({ email: owner.email, token: link.token, password: 'her new secret' }).expect(200)
    expect((await User.findByPk(owner.id))!.name).toBe('Olivia')
    const [notice] = await mailsTo(owner.email, 'Your password was reset')
    expect(notice!.body).not.toContain(stranger)
  })

  it('an address registered twice before it was verified: the "Finish signing up" mail greets nobody by a registration\'s name', async () => {
    const email = uniqueEmail('twice')
    const mail = await t.mailServer()
    const first = mail.next(mailTo(email))
    await register(email, 'owner password', 'Olivia').expect(202)
    await first
    const second = mail.next(mailTo(email))
    await register(email, 'stranger password', stranger).expect(202)
    const received = await second
    expect(received.subject).toBe('Finish signing up')
    expect(received.body).not.toContain(stranger)
    const again = mail.next(mailTo(email))
    await supertest(app).post('/api/auth/resend-verification').send({ email }).expect(200)
    expect((await again).body).not.toContain(stranger)
  })
})

describe('a mail job delivers what a request accepted after a revoking event asked for', () => {
  it('a reset asked for right after signing out is mailed (within the same second, on every database)', async () => {
    const { app: fresh } = await t.build()
    const user = await makeUser()
    const { cookies } = await login(fresh, user.email)
    await supertest(fresh).post('/api/auth/logout').set(withCookies(cookies)).expect(204)
    const arriving = (await t.mailServer()).next(mailTo(user.email))
    await supertest(fresh).post('/api/auth/forgot-password').send({ email: user.email }).expect(200)
    expect(linkIn(await arriving, 'reset-password').email).toBe(user.email)
  })
})
