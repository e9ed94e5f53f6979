import supertest from 'supertest'
import { describe, expect, it } from 'vitest'
import { EASY_CAP, capToken } from './helpers/captcha.js'
import { mailTo } from './helpers/mail.js'
import { makeUser, useTestApps } from './helpers/test-app.js'

const t = useTestApps()

describe('the e-mail sign-in request asks for a CAPTCHA', () => {
  it('without an answer: 422 errors.captcha, and nothing is mailed; with one: 202 and the mail', async () => {
    const { app } = await t.build({ env: EASY_CAP })
    const mail = await t.mailServer()
    const user = await makeUser()
    const refused = await supertest(app).post('/api/auth/email-sign-in').send({ email: user.email })
    expect(refused.status).toBe(422)
    expect(Object.keys(refused.body.errors)).toEqual(['captcha'])
    const wrong = await supertest(app).post('/api/auth/email-sign-in').send({ email: user.email, captcha: 'not-a-token' })
    expect(wrong.status).toBe(422)
    const asked = await supertest(app).post('/api/auth/email-sign-in').send({ email: user.email, captcha: await capToken(app) })
    expect(asked.status).toBe(202)
    await mail.waitFor(mailTo(user.email))
    expect(mail.received.filter(mailTo(user.email))).toHaveLength(1)
  })
})
