import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { apiKeyApi, meWith, withApiKey } from './helpers/api-keys.js'
import { jar } from './helpers/cookies.js'
import { login, makeUser, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

describe("an admin's powers over a user's keys", () => {
  let app: TestApp['app']
  let admin: Record<string, string>
  beforeAll(async () => {
    ;({ app } = await t.build())
    admin = (await login(app, (await makeUser({ role: 'admin' })).email)).cookies
  })

  it('a suspension ends every key of the user at once (401 on its next request); lifting it brings none back', async () => {
    const user = await makeUser()
    const first = await withApiKey(app, user.email, { name: 'one' })
    const second = await withApiKey(app, user.email, { name: 'two', scopes: ['read'] })
    const bystander = await withApiKey(app, (await makeUser()).email)
    // Both used once, so both sit in the authentication cache.
    for (const { key } of [first, second, bystander]) expect((await meWith(app, key)).status).toBe(200)

    await supertest(app).post(`/api/users/${user.id}/suspension`).set(withCookies(admin)).send({ reason: 'Leaked keys' }).expect(200)
    for (const { key } of [first, second]) {
      const res = await meWith(app, key)
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ message: 'Unauthenticated.' })
    }
    expect((await meWith(app, bystander.key)).status).toBe(200)

    await supertest(app).delete(`/api/users/${user.id}/suspension`).set(withCookies(admin)).expect(200)
    for (const { key } of [first, second]) expect((await meWith(app, key)).status).toBe(401)
  })

  it('while an admin is signed in as the user, the key routes answer 403 and make nothing', async () => {
    const user = await makeUser()
    const owner = await withApiKey(app, user.email, { name: 'theirs' })
    const res = await supertest(app).post(`/api/users/${user.id}/impersonation`).set(withCookies(admin))
    expect(res.status).toBe(200)
    const keys = apiKeyApi(app, jar(res, admin))
    expect((await keys.list()).status).toBe(403)
    expect((await keys.create({ name: 'Backdoor', scopes: ['read'] })).status).toBe(403)
    expect((await keys.revoke(owner.apiKey.id)).status).toBe(403)
    expect((await apiKeyApi(app, owner.cookies).list()).body.data).toHaveLength(1)
    expect((await meWith(app, owner.key)).status).toBe(200)
  })
})
