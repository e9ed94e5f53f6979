import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { RefreshToken, User } from '../src/kernel/models/index.js'
import { jar, setCookies, unsign } from './helpers/cookies.js'
import { decodeJwt } from './helpers/jwt.js'
import { authConfig, makeUser, names, PASSWORD, uniqueEmail, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

describe('login', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })

  it('returns 200 {user, access_token}, both cookies, and stores the refresh jti', async () => {
    const user = await makeUser()
    const res = await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'user'])
    expect(res.body.user).toMatchObject({ id: user.id, email: user.email, role: 'user' })

    const cookies = setCookies(res)
    const access = cookies.get(names().access)
    const refresh = cookies.get(names().refresh)
    expect(access?.maxAge).toBe(authConfig.accessExpirySeconds)
    expect(refresh?.maxAge).toBe(authConfig.refreshExpirySeconds)
    for (const cookie of [access, refresh]) {
      expect(cookie?.attributes).toMatchObject({ path: '/', httponly: true, samesite: 'Lax' })
      expect(cookie?.attributes.secure).toBeUndefined()
    }
    expect(unsign(access!.raw)).toBe(res.body.access_token)

    const claims = decodeJwt(res.body.access_token)
    expect(claims.header.alg).toBe('HS256')
    // Beyond the documented claims, `sid` names the session, so revoking it refuses this token too.
    expect(Object.keys(claims.payload).sort()).toEqual(['email', 'exp', 'iat', 'role', 'roleId', 'sid', 'sub', 'type'])
    expect(claims.payload.sid).toMatch(/^[\w-]{36}$/)
    expect(claims.payload).toMatchObject({ sub: String(user.id), email: user.email, roleId: user.roleId, role: 'user', type: 'access' })
    expect((claims.payload.exp as number) - (claims.payload.iat as number)).toBe(authConfig.accessExpirySeconds)

    const refreshClaims = decodeJwt(unsign(refresh!.raw)).payload
    expect(Object.keys(refreshClaims).sort()).toEqual(['exp', 'iat', 'jti', 'sub', 'type'])
    expect(refreshClaims.type).toBe('refresh')
    expect((refreshClaims.exp as number) - (refreshClaims.iat as number)).toBe(authConfig.refreshExpirySeconds)
    const row = await RefreshToken.findOne({ where: { jti: refreshClaims.jti as string } })
    expect(row).toMatchObject({ userId: user.id, revoked: false })
  })

  it('uses the remember-me life when remember is true', async () => {
    const user = await makeUser()
    const res = await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD, remember: true })
    const refresh = setCookies(res).get(names().refresh)!
    expect(refresh.maxAge).toBe(authConfig.refreshRememberExpirySeconds)
    const claims = decodeJwt(unsign(refresh.raw)).payload
    expect((claims.exp as number) - (claims.iat as number)).toBe(authConfig.refreshRememberExpirySeconds)
  })

  it('reads remember as a checkbox: "on", 1 and "true" mean yes; false, 0 and null mean no', async () => {
    const user = await makeUser()
    const lifeFor = async (remember: unknown) => {
      const res = await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD, remember })
      expect(res.status).toBe(200)
      return setCookies(res).get(names().refresh)!.maxAge
    }
    for (const yes of ['on', 1, 'true', '1']) expect(await lifeFor(yes)).toBe(authConfig.refreshRememberExpirySeconds)
    for (const no of [false, 0, null, 'false']) expect(await lifeFor(no)).toBe(authConfig.refreshExpirySeconds)
  })

  it('gives a new refresh-token row with a unique jti per login', async () => {
    const user = await makeUser()
    const first = jar((await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD })))
    const second = jar((await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD })))
    expect(first[names().refresh]).not.toBe(second[names().refresh])
    expect(await RefreshToken.count({ where: { userId: user.id, revoked: false } })).toBe(2)
  })

  it('matches the e-mail case-insensitively', async () => {
    const user = await makeUser()
    await supertest(app).post('/api/auth/login').send({ email: ` ${user.email.toUpperCase()} `, password: PASSWORD }).expect(200)
  })

  it('answers an unknown e-mail and a wrong password identically (422 errors.email)', async () => {
    const user = await makeUser()
    const unknown = () => supertest(app).post('/api/auth/login').send({ email: uniqueEmail('nobody'), password: PASSWORD })
    const wrong = () => supertest(app).post('/api/auth/login').send({ email: user.email, password: 'wrong password' })
    const [a, b] = [await unknown(), await wrong()]
    expect(a.status).toBe(422)
    expect(b.status).toBe(422)
    expect(a.body).toEqual(b.body)
    expect(a.body.errors.email).toEqual(['These credentials do not match our records.'])
    expect(a.headers['set-cookie']).toBeUndefined()
  })

  it('rejects a password over 72 bytes instead of comparing its truncation', async () => {
    const password = 'p'.repeat(72)
    const user = await makeUser()
    await user.update({ password: (await import('../src/kernel/auth/passwords.js').then((m) => m.hashPassword(password))) })
    await supertest(app).post('/api/auth/login').send({ email: user.email, password }).expect(200)
    const res = await supertest(app).post('/api/auth/login').send({ email: user.email, password: `${password}extra` })
    expect(res.status).toBe(422)
    expect(res.body.errors.password).toBeDefined()
  })

  it('validates the body', async () => {
    const res = await supertest(app).post('/api/auth/login').send({ email: 42, password: ['x'], remember: 'maybe' })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'password', 'remember'])
  })

  it('GET /me returns the user for a valid access cookie', async () => {
    const user = await makeUser({ role: 'admin' })
    const res = await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD })
    const me = await supertest(app).get('/api/auth/me').set(withCookies(jar(res)))
    expect(me.status).toBe(200)
    expect(me.body).toEqual({ user: res.body.user, impersonator: null })
    expect(me.body.user.role).toBe('admin')
  })

  it('GET /me without cookies is 401 Unauthenticated.', async () => {
    const res = await supertest(app).get('/api/auth/me')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ message: 'Unauthenticated.' })
  })

  it('GET /me for a user deleted since login is 401', async () => {
    const user = await makeUser()
    const res = await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD })
    await User.destroy({ where: { id: user.id } })
    await supertest(app).get('/api/auth/me').set(withCookies(jar(res))).expect(401)
  })
})

describe('login with e-mail verification required', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build({ auth: { requireEmailVerification: true } }))
  })

  it('refuses an unverified address with 403 errors.email, but only after a correct password', async () => {
    const user = await makeUser({ verified: false })
    const wrong = await supertest(app).post('/api/auth/login').send({ email: user.email, password: 'wrong password' })
    expect(wrong.status).toBe(422)
    const right = await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD })
    expect(right.status).toBe(403)
    expect(right.body.errors.email).toHaveLength(1)
    expect(right.headers['set-cookie']).toBeUndefined()
    expect(await RefreshToken.count({ where: { userId: user.id } })).toBe(0)
  })

  it('lets a verified user in', async () => {
    const user = await makeUser({ verified: true })
    await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD }).expect(200)
  })
})

describe('login with verification off', () => {
  it('lets an unverified user in', async () => {
    const { app } = await t.build({ auth: { requireEmailVerification: false } })
    const user = await makeUser({ verified: false })
    await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD }).expect(200)
  })
})
