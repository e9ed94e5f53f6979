import { createHash } from 'node:crypto'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { EmailChangeToken, User } from '../src/kernel/models/index.js'
import { confirmLinkIn, mailTo } from './helpers/mail.js'
import { account, me } from './helpers/requests.js'
import { login, makeUser, PASSWORD, uniqueEmail, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

describe('e-mail change', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    // Verification not required, so an unverified user can sign in and be verified by the change.
    ;({ app } = await t.build({ auth: { requireEmailVerification: false }, rateLimits: { emailChangePerUser: { limit: 100, windowMs: 60_000 } } }))
  })
  const confirm = (token: string, cookies: Record<string, string> = {}) =>
    supertest(app).post('/api/account/email/confirm').set(withCookies(cookies)).send({ token })

  /** Asks for a change to `to` and returns the link mailed there. */
  async function requestChange(cookies: Record<string, string>, to: string) {
    const mail = await t.mailServer()
    const arriving = mail.next(mailTo(to))
    const res = await account(app, cookies).changeEmail({ email: to, password: PASSWORD })
    expect(res.status).toBe(200)
    return confirmLinkIn(await arriving)
  }

  it('changes nothing yet: 200 {message}, a link to the new address (stored hashed, 24 h) and a notice to the old one', async () => {
    const mail = await t.mailServer()
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const next = uniqueEmail('new')
    const notice = mail.next(mailTo(user.email))
    const link = await requestChange(cookies, next)

    expect(link.url.startsWith('http://localhost:3000/confirm-email?token=')).toBe(true)
    expect((await notice).subject).toBe('A change of your e-mail address was requested')
    expect((await notice).body).toContain(next)
    expect((await me(app, cookies)).body.user.email).toBe(user.email)
    const row = await EmailChangeToken.findOne({ where: { userId: user.id } })
    expect(row).toMatchObject({ email: next, tokenHash: sha256(link.token) })
    expect(Math.abs((row!.expiresAt.getTime() - row!.createdAt.getTime()) / 1000 - 24 * 3600)).toBeLessThan(5)
  })

  it('answers the same for a taken address, whose owner gets a notice instead of a link', async () => {
    const mail = await t.mailServer()
    const owner = await makeUser()
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const ownerNotice = mail.next(mailTo(owner.email))
    const taken = await account(app, cookies).changeEmail({ email: owner.email.toUpperCase(), password: PASSWORD })
    const free = await account(app, cookies).changeEmail({ email: uniqueEmail('free'), password: PASSWORD })
    expect(taken.status).toBe(200)
    expect(taken.body).toEqual(free.body)
    const received = await ownerNotice
    expect(received.subject).toBe('Someone tried to use your e-mail address')
    expect(received.body).not.toMatch(/confirm-email\?token=/)
    expect(await EmailChangeToken.count({ where: { email: owner.email } })).toBe(0)
  })

  it('confirming sets the address as verified, keeps this session and signs out every other one', async () => {
    const user = await makeUser({ verified: false })
    const here = (await login(app, user.email)).cookies
    const elsewhere = (await login(app, user.email)).cookies
    const next = uniqueEmail('moved')
    const link = await requestChange(here, next)

    const res = await confirm(link.token, here)
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ id: user.id, email: next })
    expect(res.body.user.emailVerifiedAt).not.toBeNull()
    expect((await me(app, here)).body.user.email).toBe(next)
    expect((await me(app, elsewhere)).status).toBe(401)
    await supertest(app).post('/api/auth/login').send({ email: next, password: PASSWORD }).expect(200)
    await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD }).expect(422)
  })

  it('works from a signed-out browser, signing out every session', async () => {
    const user = await makeUser()
    const session = (await login(app, user.email)).cookies
    const link = await requestChange(session, uniqueEmail('signed-out'))
    const res = await confirm(link.token)
    expect(res.status).toBe(200)
    expect((await me(app, session)).status).toBe(401)
  })

  it('a link works once; a wrong, an expired or a replaced one is 422 errors.token', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const first = await requestChange(cookies, uniqueEmail('first'))
    const second = await requestChange(cookies, uniqueEmail('second'))
    await confirm(first.token, cookies).expect(422)
    const wrong = await confirm('A'.repeat(43), cookies)
    expect(wrong.status).toBe(422)
    expect(Object.keys(wrong.body.errors)).toEqual(['token'])

    await EmailChangeToken.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { userId: user.id } })
    await confirm(second.token, cookies).expect(422)
    await EmailChangeToken.update({ expiresAt: new Date(Date.now() + 60_000) }, { where: { userId: user.id } })
    await confirm(second.token, cookies).expect(200)
    const used = await confirm(second.token, cookies)
    expect(used.status).toBe(422)
    expect(Object.keys(used.body.errors)).toEqual(['token'])
  })

  it('two parallel uses of one link: exactly one wins', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const link = await requestChange(cookies, uniqueEmail('race'))
    const results = await Promise.all([confirm(link.token), confirm(link.token), confirm(link.token)])
    expect(results.map((res) => res.status).sort()).toEqual([200, 422, 422])
  })

  it('an address taken since the request is 422 errors.email, and nothing changes', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const next = uniqueEmail('raced')
    const link = await requestChange(cookies, next)
    await makeUser({ email: next })
    const res = await confirm(link.token, cookies)
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['email'])
    expect((await User.findByPk(user.id))?.email).toBe(user.email)
  })

  it('needs the right password (422 errors.password), a valid new address and a change', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const wrong = await account(app, cookies).changeEmail({ email: uniqueEmail('x'), password: 'not the password' })
    expect(wrong.status).toBe(422)
    expect(Object.keys(wrong.body.errors)).toEqual(['password'])
    const invalid = await account(app, cookies).changeEmail({ email: 'nope', password: PASSWORD })
    expect(Object.keys(invalid.body.errors)).toEqual(['email'])
    const same = await account(app, cookies).changeEmail({ email: user.email, password: PASSWORD })
    expect(same.status).toBe(422)
    expect(Object.keys(same.body.errors)).toEqual(['email'])
    await supertest(app).post('/api/account/email').send({ email: uniqueEmail('anon'), password: PASSWORD }).expect(401)
  })
})
