import supertest from 'supertest'
import { describe, expect, it } from 'vitest'
import { EASY_CAP, capToken } from './helpers/captcha.js'
import { uniqueEmail, useTestApps } from './helpers/test-app.js'

const t = useTestApps()
const person = () => ({ name: 'Ada', email: uniqueEmail(), password: 'a long new password 1' })

describe('registration asks for a CAPTCHA', () => {
  it('without an answer: 422 errors.captcha, and no account', async () => {
    const { app } = await t.build({ auth: { requireEmailVerification: false }, env: EASY_CAP })
    const body = person()
    const res = await supertest(app).post('/api/auth/register').send(body)
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ message: expect.any(String), errors: { captcha: ['Please confirm that you are a person, then send the form again.'] } })
    const wrong = await supertest(app).post('/api/auth/register').send({ ...body, captcha: 'abc:def' })
    expect(wrong.status).toBe(422)
    expect(wrong.body.errors).toEqual({ captcha: ['The check did not pass or has expired. Please try it again.'] })
    const login = await supertest(app).post('/api/auth/login').send({ email: body.email, password: body.password })
    expect(login.status).toBe(422)
  })

  it('with a solved challenge: registered and signed in', async () => {
    const { app } = await t.build({ auth: { requireEmailVerification: false }, env: EASY_CAP })
    const body = person()
    const res = await supertest(app).post('/api/auth/register').send({ ...body, captcha: await capToken(app) })
    expect(res.status).toBe(201)
    expect(res.body.user.email).toBe(body.email)
  })

  it('answers in German to a German request', async () => {
    const { app } = await t.build({ auth: { requireEmailVerification: false }, env: EASY_CAP })
    const res = await supertest(app).post('/api/auth/register').set('Accept-Language', 'de').send(person())
    expect(res.status).toBe(422)
    expect(res.body.errors.captcha).toEqual(['Bitte bestätige, dass du ein Mensch bist, und sende das Formular dann erneut.'])
  })

  it('live validation (Precognition) asks for no answer', async () => {
    const { app } = await t.build({ auth: { requireEmailVerification: false }, env: EASY_CAP })
    await supertest(app).post('/api/auth/register').set('Precognition', 'true').set('Precognition-Validate-Only', 'email').send(person()).expect(204)
  })

  it('CAPTCHA_PROVIDER=off asks nothing, and tells the client so', async () => {
    const { app } = await t.build({ auth: { requireEmailVerification: false }, env: { CAPTCHA_PROVIDER: 'off' } })
    expect((await supertest(app).post('/api/auth/register').send(person())).status).toBe(201)
    expect((await supertest(app).get('/api/captcha').expect(200)).body).toEqual({ provider: 'off', siteKey: null })
  })
})
