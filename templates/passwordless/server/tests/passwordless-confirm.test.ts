import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { SecurityEvent } from '../src/kernel/models/index.js'
import { confirm, confirmation, unconfirm } from './helpers/confirmation.js'
import { jar } from './helpers/cookies.js'
import { mailTo, type ReceivedMail } from './helpers/mail.js'
import { askForMail, emailSignInApi } from './helpers/passwordless.js'
import { login, makeUser, uniqueEmail, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
let app: TestApp['app']

beforeAll(async () => {
  ;({ app } = await t.build({ env: { PASSWORDLESS_SIGN_UP: 'true' } }))
})

const codeIn = (mail: ReceivedMail) => /:\s*(\d{6})\b/.exec(mail.body)![1]!

/** An account made by e-mail (no password): signed in, its session's confirmation run out. */
async function emailOnlyAccount() {
  const email = uniqueEmail('mailbox')
  const asked = await askForMail(app, await t.mailServer(), email)
  const res = await emailSignInApi(app).verify({ email, code: asked.code }, asked.cookies)
  const cookies = jar(res, asked.cookies)
  await unconfirm(res.body.user.id as number)
  return { email, userId: res.body.user.id as number, cookies }
}

async function mailedCode(email: string, cookies: Record<string, string>) {
  const waiting = (await t.mailServer()).next(mailTo(email))
  const res = await supertest(app).post('/api/account/confirm/email').set(withCookies(cookies))
  expect(res.status).toBe(202)
  return { res, mail: await waiting }
}

describe('confirming it\'s you with a mailed code', () => {
  it('is how an account whose one way in is its address confirms: once, for the session that asked', async () => {
    const { email, cookies } = await emailOnlyAccount()
    expect((await confirmation(app, cookies)).body).toEqual({ confirmed_until: null, methods: ['email'] })
    const { mail } = await mailedCode(email, cookies)
    expect(mail.subject).toBe('Your confirmation code')
    const code = codeIn(mail)
    const done = await confirm(app, cookies, { email_code: code })
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    expect((await confirmation(app, cookies)).body.confirmed_until).toBe(done.body.confirmed_until)
    const again = await confirm(app, cookies, { email_code: code })
    expect(again.status).toBe(422)
    expect(again.body.errors.email_code).toBeDefined()
  })

  it('a wrong code is 422 errors.email_code and a confirmation_failed; another session cannot use the code', async () => {
    const { email, userId, cookies } = await emailOnlyAccount()
    const { mail } = await mailedCode(email, cookies)
    const code = codeIn(mail)
    const wrong = await confirm(app, cookies, { email_code: code === '000000' ? '000001' : '000000' })
    expect(wrong.status).toBe(422)
    expect(wrong.body.errors.email_code).toBeDefined()
    expect(await SecurityEvent.count({ where: { userId, type: 'confirmation_failed' } })).toBe(1)

    const second = await askForMail(app, await t.mailServer(), email)
    const elsewhere = jar(await emailSignInApi(app).verify({ token: second.token }, second.cookies), second.cookies)
    await unconfirm(userId)
    expect((await confirm(app, elsewhere, { email_code: code })).status).toBe(422)
    expect((await confirm(app, cookies, { email_code: code })).status).toBe(200)
  })

  it('is not offered to an account with a password, which confirms with it', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    expect((await confirmation(app, cookies)).body.methods).toEqual(['password'])
    expect((await supertest(app).post('/api/account/confirm/email').set(withCookies(cookies))).status).toBe(403)
  })
})
