import { beforeAll, describe, expect, it } from 'vitest'
import { askForMail, emailSignInApi } from './helpers/passwordless.js'
import { makeUser, useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
let app: TestApp['app']
let api: ReturnType<typeof emailSignInApi>

beforeAll(async () => {
  ;({ app } = await t.build())
  api = emailSignInApi(app)
})

describe('a sign-in mail works once', () => {
  it('the link used: the link again and the code are 422', async () => {
    const user = await makeUser()
    const asked = await askForMail(app, await t.mailServer(), user.email)
    expect((await api.verify({ token: asked.token }, asked.cookies)).status).toBe(200)
    const again = await api.verify({ token: asked.token }, asked.cookies)
    expect(again.status).toBe(422)
    expect(again.body.errors.token).toBeDefined()
    expect((await api.verify({ email: user.email, code: asked.code }, asked.cookies)).status).toBe(422)
  })

  it('the code used: the code again and the link are 422', async () => {
    const user = await makeUser()
    const asked = await askForMail(app, await t.mailServer(), user.email)
    expect((await api.verify({ email: user.email, code: asked.code }, asked.cookies)).status).toBe(200)
    const again = await api.verify({ email: user.email, code: asked.code }, asked.cookies)
    expect(again.status).toBe(422)
    expect(again.body.errors.code).toBeDefined()
    expect((await api.verify({ token: asked.token }, asked.cookies)).status).toBe(422)
  })

  it('of the link and the code used at the same moment, one signs in', async () => {
    for (let round = 0; round < 3; round++) {
      const user = await makeUser()
      const asked = await askForMail(app, await t.mailServer(), user.email)
      const answers = await Promise.all([
        api.verify({ token: asked.token }, asked.cookies),
        api.verify({ email: user.email, code: asked.code }, asked.cookies),
        api.verify({ token: asked.token }, asked.cookies),
      ])
      expect(answers.map((res) => res.status).sort(), `round ${round}`).toEqual([200, 422, 422])
    }
  })
})
