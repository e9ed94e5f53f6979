import { randomUUID } from 'node:crypto'
import type { Express } from 'express'
import { Op, QueryTypes } from 'sequelize'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import type { AppContext } from '../src/kernel/context.js'
import { forDialect } from '../src/kernel/db/sql.js'
import { EmailChangeToken, EmailVerificationToken, OutboxJob, PasswordResetToken, SecurityEvent, Session, User } from '../src/kernel/models/index.js'
import { hashToken, issueOneTimeToken } from '../src/kernel/services/one-time-tokens.js'
import { issueResetLink } from '../src/kernel/services/password-reset.js'
import { confirmLinkIn, linkIn, mailTo, type ReceivedMail } from './helpers/mail.js'
import { account, me } from './helpers/requests.js'
import { login, makeUser, PASSWORD, uniqueEmail, useTestApps, withCookies } from './helpers/test-app.js'
import { jobsDone } from './helpers/jobs.js'

const t = useTestApps()

let app: Express
let ctx: AppContext
beforeAll(async () => {
  ;({ app, ctx } = await t.build({
    auth: { requireEmailVerification: false },
    rateLimits: { emailChangePerUser: { limit: 1000, windowMs: 60_000 }, mailPerEmailIp: { limit: 1000, windowMs: 60_000 }, mailPerEmailIpHourly: { limit: 1000, windowMs: 3_600_000 } },
  }))
})

const liveSessions = (userId: number) => Session.count({ where: { userId, revokedAt: null } })
const pendingLinks = async (userId: number) =>
  (await EmailChangeToken.count({ where: { userId } })) +
  (await PasswordResetToken.count({ where: { userId } })) +
  (await EmailVerificationToken.count({ where: { userId, voidedAt: null } }))

/** A pending e-mail change, reset and choose-a-password link, as an attacker's request, a forgot-password and a resend would leave them. */
async function plantPendingLinks(user: User): Promise<void> {
  await issueOneTimeToken(EmailChangeToken, user.id, 3600, { fields: { email: uniqueEmail('attacker') } })
  await issueResetLink(user)
  await EmailVerificationToken.create({ userId: user.id, email: user.email, tokenHash: hashToken(randomUUID()), expiresAt: new Date(Date.now() + 3_600_000), choose: true })
}


async function noticesTo(email: string, subject: string, of = ctx): Promise<ReceivedMail[]> {
  await jobsDone(of)
  return (await t.mailServer()).received.filter((mail) => mailTo(email)(mail) && mail.subject === subject)
}

describe('takeovers through a pending credential, replayed', () => {
  /** Finding 1: someone who knew the password asked to move the account to his address; then the owner does what the notice advises. */
  const remedies: Array<[string, (user: User, cookies: Record<string, string>, admin: Record<string, string>) => Promise<unknown>]> = [
    ['she changes her password', (_user, cookies) => account(app, cookies).changePassword({ current_password: PASSWORD, password: 'a brand new secret' }).expect(200)],
    [
      'she resets her password',
      async (user) => {
        const token = await issueResetLink(user)
        await supertest(app).post('/api/auth/reset-password').send({ email: user.email, token, password: 'a brand new secret' }).expect(200)
      },
    ],
    ['she signs out everywhere', (_user, cookies) => supertest(app).post('/api/auth/logout-all').set(withCookies(cookies)).expect(204)],
    ['she signs out her other sessions', (_user, cookies) => account(app, cookies).revokeOthers({ password: PASSWORD }).expect(204)],
    ['an admin signs her out everywhere', (user, _cookies, admin) => supertest(app).delete(`/api/users/${user.id}/sessions`).set(withCookies(admin)).expect(204)],
  ]

  it.each(remedies)('1: a pending e-mail change does not survive when %s', async (_remedy, remedy) => {
    const mail = await t.mailServer()
    const user = await makeUser()
    const admin = (await login(app, (await makeUser({ role: 'admin' })).email)).cookies
    const owner = (await login(app, user.email)).cookies
    const attacker = (await login(app, user.email)).cookies
    const attackerAddress = uniqueEmail('attacker')
    const arriving = mail.next(mailTo(attackerAddress))
    await account(app, attacker).changeEmail({ email: attackerAddress, password: PASSWORD }).expect(200)
    const link = confirmLinkIn(await arriving)

    await remedy(user, owner, admin)

    const res = await supertest(app).post('/api/account/email/confirm').send({ token: link.token })
    expect(res.status).toBe(422)
    expect(res.body.errors.token).toBeDefined()
    expect((await User.findByPk(user.id))!.email).toBe(user.email)
  })

  it('2: a reset link mailed to the old address is void once the address has changed', async () => {
    const mail = await t.mailServer()
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const resetMail = mail.next(mailTo(user.email))
    await supertest(app).post('/api/auth/forgot-password').send({ email: user.email }).expect(200)
    const reset = linkIn(await resetMail, 'reset-password')

    const newAddress = uniqueEmail('moved')
    const confirmMail = mail.next(mailTo(newAddress))
    await account(app, cookies).changeEmail({ email: newAddress, password: PASSWORD }).expect(200)
    await supertest(app).post('/api/account/email/confirm').set(withCookies(cookies)).send({ token: confirmLinkIn(await confirmMail).token }).expect(200)

    // The notice to the old address names the new one, so whoever reads the old mailbox knows both.
    for (const email of [newAddress, user.email]) {
      const res = await supertest(app).post('/api/auth/reset-password').send({ email, token: reset.token, password: 'taken over' })
      expect(res.status, email).toBe(422)
    }
    await supertest(app).post('/api/auth/login').send({ email: newAddress, password: PASSWORD }).expect(200)
  })

  it('6: two admins demoting each other at the same moment leave one admin (one 200, one 422)', async () => {
    for (let round = 0; round < 3; round++) {
      // Alone as admins: every other admin of the shared database is demoted first.
      const adminRole = (await User.sequelize!.query<{ id: number }>("SELECT id FROM roles WHERE name = 'admin'", { type: QueryTypes.SELECT }))[0]!.id
      const userRole = (await User.sequelize!.query<{ id: number }>("SELECT id FROM roles WHERE name = 'user'", { type: QueryTypes.SELECT }))[0]!.id
      await User.update({ roleId: userRole }, { where: { roleId: adminRole } })
      const [a, b] = [await makeUser({ role: 'admin' }), await makeUser({ role: 'admin' })]
      const [ca, cb] = [(await login(app, a.email)).cookies, (await login(app, b.email)).cookies]
      const answers = await Promise.all([
        supertest(app).patch(`/api/users/${b.id}`).set(withCookies(ca)).send({ role: 'user' }),
        supertest(app).patch(`/api/users/${a.id}`).set(withCookies(cb)).send({ role: 'user' }),
      ])
      // The loser is refused: 422 when it got past the role check first, 403 when it already was no admin.
      const statuses = answers.map((res) => res.status).sort()
      expect(statuses[0]).toBe(200)
      expect([403, 422]).toContain(statuses[1])
      expect(await User.count({ where: { roleId: adminRole } })).toBe(1)
    }
  })

  it('6: two admins deleting each other at the same moment leave one admin', async () => {
    const adminRole = (await User.sequelize!.query<{ id: number }>("SELECT id FROM roles WHERE name = 'admin'", { type: QueryTypes.SELECT }))[0]!.id
    const userRole = (await User.sequelize!.query<{ id: number }>("SELECT id FROM roles WHERE name = 'user'", { type: QueryTypes.SELECT }))[0]!.id
    await User.update({ roleId: userRole }, { where: { roleId: adminRole } })
    const [a, b] = [await makeUser({ role: 'admin' }), await makeUser({ role: 'admin' })]
    const [ca, cb] = [(await login(app, a.email)).cookies, (await login(app, b.email)).cookies]
    const answers = await Promise.all([
      supertest(app).delete('/api/users').set(withCookies(ca)).send({ ids: [b.id] }),
      supertest(app).delete('/api/users').set(withCookies(cb)).send({ ids: [a.id] }),
    ])
    const statuses = answers.map((res) => res.status).sort()
    expect(statuses[0]).toBe(200)
    expect([401, 403, 422]).toContain(statuses[1])
    expect(await User.count({ where: { roleId: adminRole } })).toBe(1)
  })

  it('8: a finished job keeps no address, name, password hash or token in its outbox row', async () => {
    const user = await makeUser({ name: 'Outbox Person' })
    const mail = await t.mailServer()
    const arriving = mail.next(mailTo(user.email))
    await supertest(app).post('/api/auth/forgot-password').send({ email: user.email }).expect(200)
    await arriving
    await jobsDone(ctx)
    const rows = await OutboxJob.findAll({ where: { queue: ctx.keyPrefix } })
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(row.finishedAt).not.toBeNull()
      expect(row.payload).toBe('{}')
    }
    const stored = JSON.stringify(rows.map((row) => row.get()))
    expect(stored).not.toContain(user.email)
    expect(stored).not.toContain('Outbox Person')
  })
})

describe('every credential event goes through the security core', () => {
  interface Case {
    type: string
    /** Sets the scene and raises the event; returns the session that raised it, if one did. */
    act: (user: User, sessions: Array<Record<string, string>>, admin: Record<string, string>) => Promise<unknown>
    /** Of the user's two sessions: how many are left live. */
    live: number
    voids: boolean
    notice?: { subject: string; toOld?: boolean }
  }
  const cases: Case[] = [
    { type: 'sign_in', act: (user) => login(app, user.email), live: 3, voids: false },
    { type: 'sign_in_failed', act: (user) => supertest(app).post('/api/auth/login').send({ email: user.email, password: 'wrong password' }).expect(422), live: 2, voids: false },
    { type: 'sign_out', act: (_user, [first]) => supertest(app).post('/api/auth/logout').set(withCookies(first!)).expect(204), live: 1, voids: true },
    { type: 'sessions_revoked', act: (_user, [first]) => supertest(app).post('/api/auth/logout-all').set(withCookies(first!)).expect(204), live: 0, voids: true },
    { type: 'sessions_revoked', act: (_user, [first]) => account(app, first!).revokeOthers({ password: PASSWORD }).expect(204), live: 1, voids: true },
    { type: 'sessions_revoked', act: (user, _sessions, admin) => supertest(app).delete(`/api/users/${user.id}/sessions`).set(withCookies(admin)).expect(204), live: 0, voids: true },
    {
      type: 'password_changed',
      act: (_user, [first]) => account(app, first!).changePassword({ current_password: PASSWORD, password: 'another secret' }).expect(200),
      live: 1,
      voids: true,
      notice: { subject: 'Your password was changed' },
    },
    {
      type: 'password_reset',
      act: async (user) => {
        const token = await issueResetLink(user)
        await supertest(app).post('/api/auth/reset-password').send({ email: user.email, token, password: 'another secret' }).expect(200)
      },
      live: 0,
      voids: true,
      notice: { subject: 'Your password was reset' },
    },
    { type: 'email_change_requested', act: (_user, [first]) => account(app, first!).changeEmail({ email: uniqueEmail('next'), password: PASSWORD }).expect(200), live: 2, voids: false },
    {
      type: 'email_changed',
      act: async (_user, [first]) => {
        const next = uniqueEmail('next')
        const arriving = (await t.mailServer()).next(mailTo(next))
        await account(app, first!).changeEmail({ email: next, password: PASSWORD }).expect(200)
        await supertest(app).post('/api/account/email/confirm').set(withCookies(first!)).send({ token: confirmLinkIn(await arriving).token }).expect(200)
      },
      live: 1,
      voids: true,
      notice: { subject: 'The e-mail address of your account was changed', toOld: true },
    },
    { type: 'role_changed', act: (user, _sessions, admin) => supertest(app).patch(`/api/users/${user.id}`).set(withCookies(admin)).send({ role: 'admin' }).expect(200), live: 2, voids: false },
  ]

  it.each(cases.map((c) => [c.type, c] as const))('%s: its row, the sessions it ends, the links it voids, its one notice', async (_type, c) => {
    const user = await makeUser()
    const admin = (await login(app, (await makeUser({ role: 'admin' })).email)).cookies
    const sessions = [(await login(app, user.email)).cookies, (await login(app, user.email)).cookies]
    // The event of the previous case must not be taken for this one's.
    const before = (await SecurityEvent.max<number, SecurityEvent>('id')) ?? 0
    if (c.type !== 'email_change_requested' && c.type !== 'email_changed') await plantPendingLinks(user)

    await c.act(user, sessions, admin)

    const row = await SecurityEvent.findOne({ where: { userId: user.id, type: c.type, id: { [Op.gt]: before } } })
    expect(row, 'its security_events row').not.toBeNull()
    expect(row!.device).toBeTruthy()
    expect(await liveSessions(user.id)).toBe(c.live)
    if (c.type !== 'email_change_requested' && c.type !== 'email_changed') expect(await pendingLinks(user.id)).toBe(c.voids ? 0 : 3)
    // An ended session's access token is refused at once: the first one for a logout, the second otherwise.
    if (c.live < 2) expect((await me(app, sessions[c.type === 'sign_out' ? 0 : 1]!)).status, 'the access token of an ended session').toBe(401)
    if (c.notice) expect(await noticesTo(user.email, c.notice.subject)).toHaveLength(1)
  })

  it('account_deleted: the row outlives the account (without its user), every session ends', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    await account(app, cookies).remove({ password: PASSWORD }).expect(204)
    const row = await SecurityEvent.findOne({ where: { type: 'account_deleted' }, order: [['id', 'DESC']] })
    expect(row).not.toBeNull()
    expect(row!.userId).toBeNull()
    expect(await Session.count({ where: { revokedAt: null, userId: user.id } })).toBe(0)
  })

  it('a notice says what happened, when, from which device and address, and links to /settings/security', async () => {
    const user = await makeUser()
    const cookies = (await supertest(app).post('/api/auth/login').set('User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36').send({ email: user.email, password: PASSWORD })).headers['set-cookie']
    const res = await supertest(app)
      .put('/api/account/password')
      .set('Cookie', (cookies as unknown as string[]).map((c) => c.split(';')[0]).join('; '))
      .set('User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36')
      .send({ current_password: PASSWORD, password: 'yet another secret' })
    expect(res.status).toBe(200)
    const [notice] = await noticesTo(user.email, 'Your password was changed')
    expect(notice!.body).toContain('Device: Chrome on Linux')
    expect(notice!.body).toMatch(/Address: (::ffff:)?127\.0\.0\.1|Address: ::1/)
    // Intl's full date in the recipient's language (English here), in UTC.
    expect(notice!.body).toMatch(/When: \w+, \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2}:\d{2}\s[AP]M UTC/)
    expect(notice!.body).toContain('http://localhost:3000/settings/security')
  })

  it('new_device: a sign-in from a device or network new in 90 days is noticed, but not the first one after registering', async () => {
    const user = await makeUser()
    const proxied = await t.build({ env: { TRUST_PROXY: '1' } })
    const signIn = (agent: string, ip: string) =>
      supertest(proxied.app).post('/api/auth/login').set('User-Agent', agent).set('X-Forwarded-For', ip).send({ email: user.email, password: PASSWORD }).expect(200)
    const notices = () => noticesTo(user.email, 'New sign-in to your account', proxied.ctx)
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0'
    const safari = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15'
    await signIn(firefox, '203.0.113.10')
    await signIn(firefox, '203.0.113.99') // the same /24
    expect(await notices()).toHaveLength(0)
    await signIn(safari, '203.0.113.10')
    await signIn(firefox, '198.51.100.7') // another network
    await signIn(firefox, '2001:db8:1:2::5')
    await signIn(firefox, '2001:db8:1:ffff::9') // the same /48
    expect(await notices()).toHaveLength(3)
    expect(await SecurityEvent.count({ where: { userId: user.id, type: 'new_device' } })).toBe(3)
  })

  it('new_device: an account older than 90 days with no sign-in on record is noticed at its next one', async () => {
    const user = await makeUser()
    const sequelize = User.sequelize!
    await sequelize.query(forDialect('UPDATE users SET "createdAt" = ? WHERE id = ?', sequelize.getDialect()), {
      replacements: [new Date(Date.now() - 100 * 24 * 3600 * 1000), user.id],
    })
    await login(app, user.email)
    expect(await noticesTo(user.email, 'New sign-in to your account')).toHaveLength(1)
  })
})
