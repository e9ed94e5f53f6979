import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deadUrl, startSiteverify, type Siteverify } from './helpers/captcha.js'
import { makeUser, uniqueEmail, useTestApps } from './helpers/test-app.js'

const t = useTestApps()
let standIn: Siteverify

beforeAll(async () => {
  standIn = await startSiteverify()
})
afterAll(() => standIn.close())

const person = () => ({ name: 'Ada', email: uniqueEmail(), password: 'a long new password 1' })

/** Turnstile and hCaptcha: the widget's answer is checked at siteverify, here a stand-in on loopback. */
describe.each(['turnstile', 'hcaptcha'])('%s', (provider) => {
  const env = (url: string) => ({ CAPTCHA_PROVIDER: provider, CAPTCHA_SITE_KEY: 'site-key', CAPTCHA_SECRET: 'the-secret', CAPTCHA_VERIFY_URL: url })

  it('tells the client its site key', async () => {
    const { app } = await t.build({ auth: { requireEmailVerification: false }, env: env(standIn.url) })
    expect((await supertest(app).get('/api/captcha').expect(200)).body).toEqual({ provider, siteKey: 'site-key' })
  })

  it('siteverify says yes: the request goes through, and it was asked with the secret, the answer and the IP', async () => {
    const { app } = await t.build({ auth: { requireEmailVerification: false }, env: env(standIn.url) })
    standIn.answer = true
    const res = await supertest(app).post('/api/auth/register').send({ ...person(), captcha: 'answer-yes' })
    expect(res.status).toBe(201)
    const asked = standIn.received.at(-1)!
    expect(asked.get('secret')).toBe('the-secret')
    expect(asked.get('response')).toBe('answer-yes')
    expect(asked.get('remoteip')).toMatch(/127\.0\.0\.1|::1/)
  })

  it('siteverify says no: 422 errors.captcha', async () => {
    const { app } = await t.build({ auth: { requireEmailVerification: false }, env: env(standIn.url) })
    standIn.answer = false
    const user = await makeUser()
    const res = await supertest(app).post('/api/auth/forgot-password').send({ email: user.email, captcha: 'answer-no' })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['captcha'])
    standIn.answer = true
  })

  it('siteverify cannot be reached: 503, failing closed with a message that says so', async () => {
    const { app } = await t.build({ auth: { requireEmailVerification: false }, env: env(await deadUrl()) })
    const res = await supertest(app).post('/api/auth/register').send({ ...person(), captcha: 'answer' })
    expect(res.status).toBe(503)
    expect(res.body.message).toBe('The CAPTCHA service cannot be reached right now, so this cannot be checked. Please try again in a few minutes.')
  })

  it('refuses to start without its keys', async () => {
    await expect(t.build({ auth: { requireEmailVerification: false }, env: { CAPTCHA_PROVIDER: provider } })).rejects.toThrow(/CAPTCHA_SECRET/)
  })
})
