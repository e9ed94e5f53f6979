import { createHash } from 'node:crypto'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { SecurityEvent, Session } from '../src/kernel/models/index.js'
import { EmailSignIn } from '../src/features/passwordless/models/email-sign-in.js'
import { jar, setCookies } from './helpers/cookies.js'
import { askForMail, emailSignInApi } from './helpers/passwordless.js'
import { me } from './helpers/requests.js'
import { makeUser, names, useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')
let app: TestApp['app']

beforeAll(async () => {
  ;({ app } = await t.build())
})

describe('the link, opened in the browser that asked', () => {
  it('signs that browser in as a password would: both cookies, the user, a session kept as an e-mail sign-in', async () => {
    const user = await makeUser()
    const asked = await askForMail(app, await t.mailServer(), user.email, { remember: true })
    expect(asked.res.body).toEqual({ message: expect.any(String) })
    const binding = setCookies(asked.res).get(names().emailSignIn!)
    expect(binding?.attributes.httponly).toBe(true)
    expect(decodeURIComponent(binding!.raw).startsWith('s:')).toBe(true)
    expect(asked.url.startsWith('http://localhost:3000/login/email?token=')).toBe(true)

    const res = await emailSignInApi(app).verify({ token: asked.token }, asked.cookies)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.user).toMatchObject({ id: user.id, email: user.email })
    expect(typeof res.body.access_token).toBe('string')
    const cookies = jar(res, asked.cookies)
    expect(cookies[names().access]).toBeDefined()
    expect(cookies[names().refresh]).toBeDefined()
    // The binding has done its work.
    expect(cookies[names().emailSignIn!]).toBeUndefined()
    expect((await me(app, cookies).expect(200)).body.user.id).toBe(user.id)

    const session = await Session.findOne({ where: { userId: user.id } })
    expect(session?.signedInWith).toBe('email')
    expect(session?.remember).toBe(true)
    const signIn = await SecurityEvent.findOne({ where: { userId: user.id, type: 'sign_in' } })
    expect(JSON.parse(signIn!.meta!)).toEqual({ method: 'email' })
  })

  it('keeps only hashes: the token and the code are in no row', async () => {
    const user = await makeUser()
    const asked = await askForMail(app, await t.mailServer(), user.email)
    const row = await EmailSignIn.findOne({ where: { userId: user.id } })
    expect(row?.tokenHash).toBe(sha256(asked.token))
    const stored = JSON.stringify(row!.toJSON())
    expect(stored).not.toContain(asked.token)
    expect(stored).not.toContain(asked.code)
    expect(row?.codeHash).toMatch(/^[0-9a-f]{64}$/)
    expect(row?.codeHash).not.toBe(sha256(asked.code))
  })

  it('mails in the language of the request when the account has none', async () => {
    const user = await makeUser()
    const asked = await askForMail(app, await t.mailServer(), user.email, { language: 'de' })
    expect(asked.mail.subject).toBe('Dein Anmeldelink')
    expect(asked.mail.body).toContain(`Dein Code: ${asked.code}`)
  })

  it('the asking page learns of a sign-in made in its own browser: its binding is gone, so polling ends', async () => {
    const user = await makeUser()
    const asked = await askForMail(app, await t.mailServer(), user.email)
    expect((await emailSignInApi(app).status(asked.cookies)).status).toBe(202)
    const res = await emailSignInApi(app).verify({ token: asked.token }, asked.cookies)
    expect(res.status).toBe(200)
    const polled = await emailSignInApi(app).status(jar(res, asked.cookies))
    expect(polled.status).toBe(422)
    expect(polled.body.errors.token).toBeDefined()
  })

  it('answers a malformed request with 422 on its field, and Precognition without a count', async () => {
    const api = emailSignInApi(app)
    expect((await api.ask({ email: 'not an address' })).body.errors.email).toBeDefined()
    expect((await api.verify({})).body.errors).toMatchObject({ email: expect.any(Array), code: expect.any(Array) })
    expect((await api.verify({ email: 'a@example.test', code: '12ab' })).body.errors.code).toBeDefined()
    const precognitive = await supertest(app).post('/api/auth/email-sign-in').set('Precognition', 'true').send({ email: 'someone@example.test' })
    expect(precognitive.status).toBe(204)
    expect(setCookies(precognitive).size).toBe(0)
  })
})
