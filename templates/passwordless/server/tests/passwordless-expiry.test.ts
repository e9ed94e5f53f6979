import { beforeAll, describe, expect, it } from 'vitest'
import { EmailSignIn } from '../src/features/passwordless/models/email-sign-in.js'
import { askForMail, emailSignInApi } from './helpers/passwordless.js'
import { makeUser, useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
let app: TestApp['app']

beforeAll(async () => {
  ;({ app } = await t.build())
})

describe('a sign-in mail expires after 10 minutes', () => {
  it('lives 10 minutes, as does the binding cookie', async () => {
    const user = await makeUser()
    const asked = await askForMail(app, await t.mailServer(), user.email)
    const row = await EmailSignIn.findOne({ where: { userId: user.id } })
    expect(Math.abs((row!.expiresAt.getTime() - row!.createdAt.getTime()) / 1000 - 600)).toBeLessThan(5)
    expect(asked.res.headers['set-cookie']!.toString()).toMatch(/_email_sign_in=[^;]+;\s*Max-Age=600/)
  })

  it('then its link and its code are 422, and an approval waiting for the asking browser lets nobody in', async () => {
    const api = emailSignInApi(app)
    const user = await makeUser()
    const asked = await askForMail(app, await t.mailServer(), user.email)
    await EmailSignIn.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { userId: user.id } })
    const byLink = await api.verify({ token: asked.token }, asked.cookies)
    expect(byLink.status).toBe(422)
    expect(byLink.body.errors.token).toBeDefined()
    const byCode = await api.verify({ email: user.email, code: asked.code }, asked.cookies)
    expect(byCode.status).toBe(422)
    expect(byCode.body.errors.code).toBeDefined()
    expect((await api.approve({ token: asked.token })).status).toBe(422)

    const again = await askForMail(app, await t.mailServer(), user.email)
    expect((await api.approve({ token: again.token })).status).toBe(200)
    await EmailSignIn.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { userId: user.id } })
    expect((await api.status(again.cookies)).body).toEqual({ status: 'pending' })
  })
})
