import supertest from 'supertest'
import { describe, expect, it } from 'vitest'
import { signInWithPasskey, withPasskey } from './helpers/passkeys.js'
import { passwordStep, withTwoFactor } from './helpers/two-factor.js'
import { makeUser, useTestApps } from './helpers/test-app.js'

const t = useTestApps()

describe('passkeys with two-factor authentication', () => {
  it('a passkey sign-in asks for no second factor; a password sign-in still does', async () => {
    const { app } = await t.build()
    const user = await makeUser()
    const { authenticator } = await withPasskey(app, user.email)
    await withTwoFactor(app, user.email)
    const password = await passwordStep(app, user.email)
    expect(password.res.body).toEqual({ two_factor: true })
    const { res } = await signInWithPasskey(app, authenticator)
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ id: user.id, twoFactorEnabled: true, passkeys: 1 })
    expect(res.body.access_token).toEqual(expect.any(String))
    expect(res.body).not.toHaveProperty('two_factor')
    const me = await supertest(app).get('/api/auth/me').set('Cookie', (res.headers['set-cookie'] as unknown as string[]).map((line) => line.split(';')[0]).join('; '))
    expect(me.status).toBe(200)
  })
})
