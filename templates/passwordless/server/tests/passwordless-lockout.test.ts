import { describe, expect, it } from 'vitest'
import { askForMail, emailSignInApi } from './helpers/passwordless.js'
import { makeUser, uniqueEmail, useTestApps } from './helpers/test-app.js'

const t = useTestApps()

/** A six-digit code that is not `code`. */
const otherThan = (code: string, n = 0) => String((Number(code) + 1 + n) % 1_000_000).padStart(6, '0')

describe('wrong codes', () => {
  it('five wrong codes void the mail\'s code, the right one included; its link still works', async () => {
    const { app } = await t.build()
    const api = emailSignInApi(app)
    const user = await makeUser()
    const asked = await askForMail(app, await t.mailServer(), user.email)
    for (let i = 0; i < 5; i++) expect((await api.verify({ email: user.email, code: otherThan(asked.code, i) })).status).toBe(422)
    const right = await api.verify({ email: user.email, code: asked.code }, asked.cookies)
    expect(right.status).toBe(422)
    expect(right.body.errors.code).toBeDefined()
    expect((await api.verify({ token: asked.token }, asked.cookies)).status).toBe(200)
  })

  it('lock the address out, from every IP and for its right code too, with 429 and Retry-After; the link still works', async () => {
    const { app } = await t.build({ rateLimits: { emailSignInCodePerAddress: { limit: 3, windowMs: 60_000 } } })
    const api = emailSignInApi(app)
    const user = await makeUser()
    const asked = await askForMail(app, await t.mailServer(), user.email)
    for (let i = 0; i < 3; i++) expect((await api.verify({ email: user.email, code: otherThan(asked.code, i) })).status).toBe(422)
    const locked = await api.verify({ email: user.email, code: asked.code }, asked.cookies)
    expect(locked.status).toBe(429)
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0)
    expect(locked.body).toEqual({ message: expect.any(String) })
    // Another address is not locked; this one's link is not either.
    const other = await makeUser()
    const otherAsked = await askForMail(app, await t.mailServer(), other.email)
    expect((await api.verify({ email: other.email, code: otherAsked.code }, otherAsked.cookies)).status).toBe(200)
    expect((await api.verify({ token: asked.token }, asked.cookies)).status).toBe(200)
  })

  it('wrong codes and links count toward the IP\'s limit, across addresses', async () => {
    const { app } = await t.build({ rateLimits: { emailSignInWrongPerIp: { limit: 3, windowMs: 60_000 } } })
    const api = emailSignInApi(app)
    expect((await api.verify({ email: uniqueEmail(), code: '123456' })).status).toBe(422)
    expect((await api.verify({ token: 'A'.repeat(43) })).status).toBe(422)
    expect((await api.approve({ token: 'B'.repeat(43) })).status).toBe(422)
    const user = await makeUser()
    const asked = await askForMail(app, await t.mailServer(), user.email)
    const res = await api.verify({ email: user.email, code: asked.code }, asked.cookies)
    expect(res.status).toBe(429)
    expect(res.headers['retry-after']).toBeDefined()
  })
})
