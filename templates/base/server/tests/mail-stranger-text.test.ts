import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { linkIn, mailTo } from './helpers/mail.js'
import { account } from './helpers/requests.js'
import { login, makeUser, PASSWORD, uniqueEmail, useTestApps, type TestApp } from './helpers/test-app.js'

/**
 * Mail to an address that did not itself ask for it carries no text someone else chose: anyone
 * can register with another person's address, and anyone signed in can name another person's
 * address as their new one. A name is the chooser's text, so those mails greet nobody by name.
 */
const t = useTestApps()
const LURE = 'Click here: evil.example'
let app: TestApp['app']
beforeAll(async () => {
  ;({ app } = await t.build({ auth: { requireEmailVerification: true } }))
})

describe('names chosen by someone else stay out of the mail', () => {
  it("a registration's verification mail to the address greets nobody by the registration's name", async () => {
    const mail = await t.mailServer()
    const victim = uniqueEmail('victim')
    const arriving = mail.next(mailTo(victim))
    await supertest(app).post('/api/auth/register').send({ name: LURE, email: victim, password: 'a fine fresh secret' }).expect(202)
    const received = await arriving
    expect(linkIn(received, 'verify-email').email).toBe(victim)
    expect(received.body).not.toContain('evil.example')
    expect(received.body).toContain('Hello,')
  })

  it("an e-mail change's confirmation mail to the new address greets nobody by the account's name", async () => {
    const mail = await t.mailServer()
    const user = await makeUser({ name: LURE })
    const { cookies } = await login(app, user.email)
    const victim = uniqueEmail('victim')
    const arriving = mail.next(mailTo(victim))
    expect((await account(app, cookies).changeEmail({ email: victim, password: PASSWORD })).status).toBe(200)
    const received = await arriving
    expect(received.body).toContain('/confirm-email?token=')
    expect(received.body).not.toContain('evil.example')
    expect(received.body).toContain('Hello,')
  })
})
