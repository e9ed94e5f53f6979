import { beforeAll, describe, expect, it } from 'vitest'
import { EmailSignIn } from '../src/features/passwordless/models/email-sign-in.js'
import { askForMail, emailSignInApi } from './helpers/passwordless.js'
import { makeUser, useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
let app: TestApp['app']

beforeAll(async () => {
  ;({ app } = await t.build())
})

describe('a newer sign-in mail voids the older one', () => {
  it('the older link and code are 422; the newer ones work', async () => {
    const api = emailSignInApi(app)
    const user = await makeUser()
    const first = await askForMail(app, await t.mailServer(), user.email)
    const second = await askForMail(app, await t.mailServer(), user.email, { cookies: first.cookies })
    expect(await EmailSignIn.count({ where: { email: user.email } })).toBe(1)
    expect((await api.verify({ token: first.token }, first.cookies)).status).toBe(422)
    if (first.code !== second.code) expect((await api.verify({ email: user.email, code: first.code })).status).toBe(422)
    expect((await api.verify({ token: second.token }, second.cookies)).status).toBe(200)
  })

  it('a mail asked for from another browser voids the first browser\'s too', async () => {
    const api = emailSignInApi(app)
    const user = await makeUser()
    const first = await askForMail(app, await t.mailServer(), user.email)
    const second = await askForMail(app, await t.mailServer(), user.email)
    expect((await api.approve({ token: first.token })).status).toBe(422)
    expect((await api.verify({ token: second.token }, second.cookies)).status).toBe(200)
  })
})
