import { beforeAll, describe, expect, it } from 'vitest'
import { jar } from './helpers/cookies.js'
import { askForMail, emailSignInApi } from './helpers/passwordless.js'
import { me } from './helpers/requests.js'
import { makeUser, names, useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
let app: TestApp['app']
let api: ReturnType<typeof emailSignInApi>

beforeAll(async () => {
  ;({ app } = await t.build())
  api = emailSignInApi(app)
})

describe('the link, opened on another device', () => {
  it('asks there first, changes nothing until confirmed, then signs in the browser that asked, once', async () => {
    const user = await makeUser()
    const asked = await askForMail(app, await t.mailServer(), user.email)
    const phone = {}

    const opened = await api.verify({ token: asked.token }, phone)
    expect(opened.status).toBe(200)
    expect(opened.body).toEqual({ other_device: true })
    expect(jar(opened)[names().access]).toBeUndefined()
    // Nothing used yet: the asking page still waits.
    expect((await api.status(asked.cookies)).body).toEqual({ status: 'pending' })

    const approved = await api.approve({ token: asked.token }, phone)
    expect(approved.status).toBe(200)
    expect(approved.body).toEqual({ message: expect.any(String) })
    // The phone gets no session of its own.
    expect(jar(approved)[names().access]).toBeUndefined()

    const polled = await api.status(asked.cookies)
    expect(polled.status, JSON.stringify(polled.body)).toBe(200)
    expect(polled.body.user).toMatchObject({ id: user.id })
    const cookies = jar(polled, asked.cookies)
    expect((await me(app, cookies).expect(200)).body.user.id).toBe(user.id)
    expect(cookies[names().emailSignIn!]).toBeUndefined()

    // Once: the link, the code and the poll are spent.
    expect((await api.approve({ token: asked.token }, phone)).status).toBe(422)
    expect((await api.verify({ token: asked.token }, asked.cookies)).status).toBe(422)
    expect((await api.verify({ email: user.email, code: asked.code }, asked.cookies)).status).toBe(422)
    expect((await api.status(cookies)).status).toBe(422)
  })

  it('another browser\'s binding is not the asking one\'s: it too is only asked', async () => {
    const user = await makeUser()
    const asked = await askForMail(app, await t.mailServer(), user.email)
    const other = await api.ask({ email: `someone-else-${user.id}@example.test` })
    const res = await api.verify({ token: asked.token }, jar(other))
    expect(res.body).toEqual({ other_device: true })
  })

  it('once approved, the code typed on the asking page no longer works: either one uses the mail', async () => {
    const user = await makeUser()
    const asked = await askForMail(app, await t.mailServer(), user.email)
    expect((await api.approve({ token: asked.token })).status).toBe(200)
    const typed = await api.verify({ email: user.email, code: asked.code }, asked.cookies)
    expect(typed.status).toBe(422)
    expect(typed.body.errors.code).toBeDefined()
    expect((await api.status(asked.cookies)).status).toBe(200)
  })

  it('a poll without a binding has nothing to wait for: 422 errors.token', async () => {
    const res = await api.status({})
    expect(res.status).toBe(422)
    expect(res.body.errors.token).toBeDefined()
  })
})
