import type { Express } from 'express'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { User } from '../src/kernel/models/index.js'
import { confirmLinkIn, linkIn, mailTo, type MailLink } from './helpers/mail.js'
import { account } from './helpers/requests.js'
import { login, makeUser, PASSWORD, uniqueEmail, useTestApps, withCookies } from './helpers/test-app.js'

/**
 * A takeover that worked once: "resend verification" (or a registration of a taken address) mails a
 * verified account a choose-a-password link, in effect a password reset. It must die with every
 * event that revokes sessions and with any change of the address it was mailed to, or whoever
 * reads the old mailbox takes the account over after its owner has moved, changed the password
 * and signed out everywhere.
 */
const t = useTestApps()

let app: Express
beforeAll(async () => {
  ;({ app } = await t.build({
    auth: { requireEmailVerification: true },
    rateLimits: { emailChangePerUser: { limit: 1000, windowMs: 60_000 }, mailPerEmailIp: { limit: 1000, windowMs: 60_000 }, mailPerEmailIpHourly: { limit: 1000, windowMs: 3_600_000 } },
  }))
})

/** What a stranger gets into the account's (old) mailbox by asking to resend its verification. */
async function chooseLinkFor(email: string): Promise<MailLink> {
  const arriving = (await t.mailServer()).next(mailTo(email))
  await supertest(app).post('/api/auth/resend-verification').send({ email }).expect(200)
  const mail = await arriving
  expect(mail.body).toMatch(/&(amp;)?choose=1/)
  return linkIn(mail, 'verify-email')
}

async function moveTo(cookies: Record<string, string>, address: string): Promise<void> {
  const arriving = (await t.mailServer()).next(mailTo(address))
  await account(app, cookies).changeEmail({ email: address, password: PASSWORD }).expect(200)
  await supertest(app).post('/api/account/email/confirm').set(withCookies(cookies)).send({ token: confirmLinkIn(await arriving).token }).expect(200)
}

/** Tries the link as its holder would: with the address it names and with the account's address now. */
async function expectDead(link: MailLink, user: User): Promise<void> {
  const now = (await User.findByPk(user.id))!
  for (const email of new Set([link.email, now.email])) {
    const res = await supertest(app).post('/api/auth/verify-email').send({ email, token: link.token, password: 'taken over!' })
    expect(res.status, email).toBe(422)
    expect(res.body.errors.token).toBeDefined()
  }
  await supertest(app).post('/api/auth/login').send({ email: now.email, password: 'taken over!' }).expect(422)
}

describe('a choose-a-password link never outlives what should end it', () => {
  it('the attack\'s steps: the owner moves to a new address, changes the password and signs out everywhere', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const link = await chooseLinkFor(user.email)

    const moved = uniqueEmail('moved')
    await moveTo(cookies, moved)
    await account(app, cookies).changePassword({ current_password: PASSWORD, password: 'the new secret' }).expect(200)
    await supertest(app).post('/api/auth/logout-all').set(withCookies(cookies)).expect(204)

    await expectDead(link, user)
    await supertest(app).post('/api/auth/login').send({ email: moved, password: 'the new secret' }).expect(200)
  })

  const remedies: Array<[string, (user: User, cookies: Record<string, string>) => Promise<unknown>]> = [
    ['the owner changes the address', (_user, cookies) => moveTo(cookies, uniqueEmail('moved'))],
    ['the owner changes the password', (_user, cookies) => account(app, cookies).changePassword({ current_password: PASSWORD, password: 'the new secret' }).expect(200)],
    ['the owner signs out everywhere', (_user, cookies) => supertest(app).post('/api/auth/logout-all').set(withCookies(cookies)).expect(204)],
    ['the owner signs out', (_user, cookies) => supertest(app).post('/api/auth/logout').set(withCookies(cookies)).expect(204)],
    ['the owner signs out the other sessions', (_user, cookies) => account(app, cookies).revokeOthers({ password: PASSWORD }).expect(204)],
    // Behind the app's back (an SQL update, a support tool): the link is bound to the address it went to.
    ['the address changes without an event', (user) => User.update({ email: uniqueEmail('elsewhere') }, { where: { id: user.id } })],
  ]

  it.each(remedies)('dies when %s', async (_remedy, remedy) => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const link = await chooseLinkFor(user.email)
    await remedy(user, cookies)
    await expectDead(link, user)
  })

  it('a reset link mailed to an address the account has left does not work either, even without an event', async () => {
    const user = await makeUser()
    const arriving = (await t.mailServer()).next(mailTo(user.email))
    await supertest(app).post('/api/auth/forgot-password').send({ email: user.email }).expect(200)
    const reset = linkIn(await arriving, 'reset-password')
    const elsewhere = uniqueEmail('elsewhere')
    await User.update({ email: elsewhere }, { where: { id: user.id } })
    for (const email of [user.email, elsewhere]) {
      const res = await supertest(app).post('/api/auth/reset-password').send({ email, token: reset.token, password: 'taken over!' })
      expect(res.status, email).toBe(422)
    }
  })

  it('an untouched link still works for the address it was mailed to', async () => {
    const user = await makeUser()
    const link = await chooseLinkFor(user.email)
    await supertest(app).post('/api/auth/verify-email').send({ email: link.email, token: link.token, password: 'chosen again' }).expect(200)
    await supertest(app).post('/api/auth/login').send({ email: user.email, password: 'chosen again' }).expect(200)
  })
})
