import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { OutboxJob, User } from '../src/kernel/models/index.js'
import { login, makeUser, PASSWORD, uniqueEmail, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

type Who = 'guest' | 'user' | 'admin'
/** Every route that validates a body: a valid and an invalid body, and the field the latter fails on. */
const routes = (target: number): Array<[string, string, Who, object, object, string]> => [
  ['post', '/api/auth/register', 'guest', { name: 'New', email: uniqueEmail('pre'), password: 'long enough' }, { name: 'New', email: 'nope', password: 'long enough' }, 'email'],
  ['post', '/api/auth/login', 'guest', { email: uniqueEmail('pre'), password: 'wrong' }, { email: 'nope', password: 'x' }, 'email'],
  ['post', '/api/auth/forgot-password', 'guest', { email: uniqueEmail('pre') }, { email: 'nope' }, 'email'],
  ['post', '/api/auth/reset-password', 'guest', { email: uniqueEmail('pre'), token: 't', password: 'long enough' }, { email: uniqueEmail('pre'), token: 't', password: 'short' }, 'password'],
  ['post', '/api/auth/verify-email', 'guest', { email: uniqueEmail('pre'), token: 't' }, { email: uniqueEmail('pre') }, 'token'],
  ['post', '/api/auth/resend-verification', 'guest', { email: uniqueEmail('pre') }, {}, 'email'],
  ['post', '/api/auth/refresh-token', 'guest', {}, { refresh_token: 5 }, 'refresh_token'],
  ['patch', '/api/account/profile', 'user', { name: 'Renamed' }, { name: '' }, 'name'],
  ['post', '/api/account/email', 'user', { email: uniqueEmail('pre'), password: 'wrong' }, { email: 'nope', password: 'x' }, 'email'],
  ['post', '/api/account/email/confirm', 'guest', { token: 't' }, {}, 'token'],
  ['put', '/api/account/password', 'user', { current_password: 'wrong', password: 'long enough' }, { current_password: 'x', password: 'short' }, 'password'],
  ['delete', '/api/account', 'user', { password: 'wrong' }, { password: 5 }, 'password'],
  ['delete', '/api/account/sessions', 'user', { password: 'wrong' }, { password: 5 }, 'password'],
  ['patch', '/api/session', 'guest', { theme: 'dark' }, { '': 1 }, ''],
  ['delete', '/api/users', 'admin', { ids: [target] }, { ids: [] }, 'ids'],
  ['patch', `/api/users/${target}`, 'admin', { role: 'admin' }, { role: 'owner' }, 'role'],
]

describe('Precognition on every route that validates a body', () => {
  let app: TestApp['app']
  let target: User
  const cookies: Record<Who, Record<string, string>> = { guest: {}, user: {}, admin: {} }
  beforeAll(async () => {
    ;({ app } = await t.build())
    target = await makeUser({ name: 'Target' })
    cookies.user = (await login(app, target.email)).cookies
    cookies.admin = (await login(app, (await makeUser({ role: 'admin' })).email)).cookies
  })

  const call = (method: string, path: string, who: Who, body: object, headers: Record<string, string> = {}) =>
    (supertest(app) as unknown as Record<string, (path: string) => supertest.Test>)[method]!(path)
      .set(withCookies(cookies[who]))
      .set({ Precognition: 'true', ...headers })
      .send(body)

  it('a valid body: 204 with Precognition, Precognition-Success and Vary, and nothing done', async () => {
    const jobs = await OutboxJob.count()
    for (const [method, path, who, valid] of routes(target.id)) {
      const res = await call(method, path, who, valid)
      expect(res.status, `${method} ${path}`).toBe(204)
      expect(res.headers.precognition, path).toBe('true')
      expect(res.headers['precognition-success'], path).toBe('true')
      expect(res.headers.vary, path).toMatch(/Precognition/)
      expect(res.headers['set-cookie'], path).toBeUndefined()
    }
    // No write, no job (every mail is one), no sign-in, no password check.
    const after = await User.findByPk(target.id)
    expect({ name: after!.name, roleId: after!.roleId }).toEqual({ name: 'Target', roleId: target.roleId })
    expect(await OutboxJob.count()).toBe(jobs)
    await supertest(app).post('/api/auth/login').send({ email: target.email, password: PASSWORD }).expect(200)
  })

  it('an invalid body: the usual 422, with Precognition and Vary', async () => {
    for (const [method, path, who, , invalid, field] of routes(target.id)) {
      const res = await call(method, path, who, invalid)
      expect(res.status, `${method} ${path}`).toBe(422)
      expect(Object.keys(res.body.errors), path).toContain(field === '' ? Object.keys(res.body.errors)[0] : field)
      expect(res.headers.precognition, path).toBe('true')
      expect(res.headers['precognition-success'], path).toBeUndefined()
      expect(res.headers.vary, path).toMatch(/Precognition/)
    }
  })

  it('Precognition-Validate-Only reports only the listed fields', async () => {
    const body = { name: '', email: 'nope', password: 'short' }
    const some = await call('post', '/api/auth/register', 'guest', body, { 'Precognition-Validate-Only': 'email, password' })
    expect(some.status).toBe(422)
    expect(Object.keys(some.body.errors).sort()).toEqual(['email', 'password'])
    const fine = await call('post', '/api/auth/register', 'guest', { ...body, name: 'Ok' }, { 'Precognition-Validate-Only': 'name' })
    expect(fine.status).toBe(204)
  })

  it('routes that need authentication or a role still do', async () => {
    expect((await call('patch', '/api/account/profile', 'guest', { name: 'x' })).status).toBe(401)
    expect((await call('delete', '/api/users', 'user', { ids: [target.id] })).status).toBe(403)
  })

  it('a taken e-mail is a precognitive 422 on register (verification off), so the form shows it as the field is left', async () => {
    const { app: open } = await t.build({ auth: { requireEmailVerification: false } })
    const res = await supertest(open).post('/api/auth/register').set('Precognition', 'true').set('Precognition-Validate-Only', 'email').send({ email: target.email })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual({ email: ['The email has already been taken.'] })
  })

  it('with verification on, register says nothing about a taken e-mail, live or not', async () => {
    const { app: verifying } = await t.build({ auth: { requireEmailVerification: true } })
    const res = await supertest(verifying).post('/api/auth/register').set('Precognition', 'true').set('Precognition-Validate-Only', 'email').send({ email: target.email })
    expect(res.status).toBe(204)
  })

  it('counts toward no rate limit', async () => {
    const tight = { limit: 2, windowMs: 60_000 }
    const { app: limited } = await t.build({
      rateLimits: { loginPerEmailIp: tight, loginPerIp: tight, registerPerIp: tight, registerPerEmailIp: tight, registerPerEmailIpHourly: tight, mailPerEmailIp: tight, mailPerEmailIpHourly: tight, mailPerIp: tight, accountPasswordPerSession: tight, accountPasswordPerUser: tight },
    })
    const user = await makeUser()
    const signedIn = (await login(limited, user.email)).cookies
    const email = uniqueEmail('pre')
    for (let i = 0; i < 5; i++) {
      for (const [path, body] of [
        ['/api/auth/login', { email: user.email, password: 'wrong' }],
        ['/api/auth/register', { name: 'A', email, password: 'long enough' }],
        ['/api/auth/forgot-password', { email }],
      ] as const) {
        await supertest(limited).post(path).set('Precognition', 'true').send(body).expect(204)
      }
      await supertest(limited).delete('/api/account/sessions').set(withCookies(signedIn)).set('Precognition', 'true').send({ password: 'wrong' }).expect(204)
    }
    await supertest(limited).post('/api/auth/login').send({ email: user.email, password: PASSWORD }).expect(200)
    await supertest(limited).post('/api/auth/forgot-password').send({ email }).expect(200)
    await supertest(limited).delete('/api/account/sessions').set(withCookies(signedIn)).send({ password: PASSWORD }).expect(204)
  })

  it('a request without the header is handled as always, with Vary: Precognition', async () => {
    const res = await supertest(app).post('/api/auth/forgot-password').send({ email: uniqueEmail('pre') })
    expect(res.status).toBe(200)
    expect(res.headers.vary).toMatch(/Precognition/)
    expect(res.headers.precognition).toBeUndefined()
  })
})
