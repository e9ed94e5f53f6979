import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { User } from '../src/kernel/models/index.js'
import { me } from './helpers/requests.js'
import { login, makeUser, PASSWORD, useTestApps, type TestApp } from './helpers/test-app.js'
import { codeFor, twoFactorApi } from './helpers/two-factor.js'

const t = useTestApps()

describe('POST /api/account/two-factor', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })

  it('answers a new secret, its otpauth URL and a QR code, and keeps it encrypted and pending', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const res = await twoFactorApi(app, cookies).enable()
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(['otpauth_url', 'qr_svg', 'secret'])
    const { secret, otpauth_url: url, qr_svg: svg } = res.body as { secret: string; otpauth_url: string; qr_svg: string }
    // 160 bits in base32.
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    const parsed = new URL(url)
    expect(parsed.protocol).toBe('otpauth:')
    expect(parsed.host).toBe('totp')
    expect(decodeURIComponent(parsed.pathname)).toContain(user.email)
    expect(parsed.searchParams.get('secret')).toBe(secret)
    expect(parsed.searchParams.get('algorithm')).toBe('SHA1')
    expect(parsed.searchParams.get('digits')).toBe('6')
    expect(parsed.searchParams.get('period')).toBe('30')
    expect(svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/)

    const row = await User.findByPk(user.id)
    expect(row!.twoFactorPendingSecret).toMatch(/^v1\./)
    expect(row!.twoFactorPendingSecret).not.toContain(secret)
    expect(row!.twoFactorSecret).toBeNull()
    expect(row!.twoFactorConfirmedAt).toBeNull()
  })

  it('changes nothing at login until confirmed', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    await twoFactorApi(app, cookies).enable().expect(200)
    const res = await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD })
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ id: user.id, twoFactorEnabled: false })
    expect((await me(app, cookies)).body.user.twoFactorEnabled).toBe(false)
  })

  it('a second call replaces the pending secret: codes of the first one no longer confirm', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const api = twoFactorApi(app, cookies)
    const first = (await api.enable()).body.secret as string
    const second = (await api.enable()).body.secret as string
    expect(second).not.toBe(first)
    const stale = await api.confirm({ code: await codeFor(first, -1) })
    expect(stale.status).toBe(422)
    expect(Object.keys(stale.body.errors)).toEqual(['code'])
    expect((await api.confirm({ code: await codeFor(second, -1) })).status).toBe(200)
  })

  it('a wrong password is 422 errors.password and starts nothing', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const res = await twoFactorApi(app, cookies).enable({ password: 'not my password' })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['password'])
    expect((await User.findByPk(user.id))!.twoFactorPendingSecret).toBeNull()
  })

  it('needs authentication', async () => {
    await supertest(app).post('/api/account/two-factor').send({ password: PASSWORD }).expect(401)
  })
})

describe('live validation (Precognition) of the two-factor routes', () => {
  it('checks the body only: no secret, no password check, no attempt counted', async () => {
    const { app } = await t.build()
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const precognitive = { Precognition: 'true' }
    const started = await twoFactorApi(app, cookies).enable({ password: 'not my password' }).set(precognitive)
    expect(started.status).toBe(204)
    expect(started.headers['precognition-success']).toBe('true')
    expect((await User.findByPk(user.id))!.twoFactorPendingSecret).toBeNull()
    const malformed = await twoFactorApi(app, cookies).confirm({ code: '12' }).set(precognitive)
    expect(malformed.status).toBe(422)
    expect(Object.keys(malformed.body.errors)).toEqual(['code'])

    // The challenge route still needs its challenge.
    const challenge = await supertest(app).post('/api/auth/two-factor-challenge').set(precognitive).send({ code: '123456' })
    expect(challenge.status).toBe(401)
  })
})
