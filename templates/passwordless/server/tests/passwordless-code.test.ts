import { beforeAll, describe, expect, it } from 'vitest'
import { jar } from './helpers/cookies.js'
import { askForMail, emailSignInApi } from './helpers/passwordless.js'
import { me } from './helpers/requests.js'
import { makeUser, useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
let app: TestApp['app']
let api: ReturnType<typeof emailSignInApi>

beforeAll(async () => {
  ;({ app } = await t.build())
  api = emailSignInApi(app)
})

describe('the code, typed on the page that asked', () => {
  it('signs that browser in with the remember-me of the request; spaces copied along are fine', async () => {
    const user = await makeUser()
    const asked = await askForMail(app, await t.mailServer(), user.email, { remember: true })
    const spaced = `${asked.code.slice(0, 3)} ${asked.code.slice(3)}`
    const res = await api.verify({ email: user.email.toUpperCase(), code: spaced }, asked.cookies)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.user.id).toBe(user.id)
    const cookies = jar(res, asked.cookies)
    expect((await me(app, cookies).expect(200)).body.user.id).toBe(user.id)
  })

  it('a wrong code, or the right one for another address, is 422 errors.code', async () => {
    const user = await makeUser()
    const other = await makeUser()
    const asked = await askForMail(app, await t.mailServer(), user.email)
    const wrong = asked.code === '000000' ? '000001' : '000000'
    const res = await api.verify({ email: user.email, code: wrong }, asked.cookies)
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['code'])
    expect((await api.verify({ email: other.email, code: asked.code })).status).toBe(422)
    // Still good after those.
    expect((await api.verify({ email: user.email, code: asked.code })).status).toBe(200)
  })
})
