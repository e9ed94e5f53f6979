import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { cookieHeader } from './helpers/cookies.js'
import { login, makeUser, names, useTestApps, type TestApp } from './helpers/test-app.js'

/**
 * The class of a malformed `Authorization` or cookie header that throws (Auth.js
 * GHSA-xmf8-cvqr-rfgj): no header, however broken, yields a 500; it is ignored or refused.
 */
const t = useTestApps()
let app: TestApp['app']
beforeAll(async () => {
  ;({ app } = await t.build())
})

describe('malformed headers never throw', () => {
  const { access, refresh, session } = names()
  it.each([
    ['Authorization', 'Bearer'],
    ['Authorization', 'Bearer '],
    ['Authorization', 'Bearer %%%'],
    ['Authorization', 'Basic !!!'],
    ['Authorization', 'Bearer a.b.c'],
    ['Cookie', `${access}=%E0%A4%A`],
    ['Cookie', `${access}=s%3A`],
    ['Cookie', `${refresh}=s:${'x'.repeat(4000)}`],
    ['Cookie', `${access}=; ${access}=; ${refresh}=`],
    ['Cookie', `${session}=%`],
    ['Cookie', '=;=;;;'],
    ['Cookie', `${access}=${'\u00ff'.repeat(10)}`],
  ])('%s: %j answers 401 on /me and a clean answer on login', async (header, value) => {
    const res = await supertest(app).get('/api/auth/me').set(header, value)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ message: 'Unauthenticated.' })
    const user = await makeUser()
    const signedIn = await supertest(app).post('/api/auth/login').set(header, value).send({ email: user.email, password: 'correct horse battery' })
    expect(signedIn.status).toBeLessThan(500)
  })

  it('a valid session with a malformed cookie beside it still works; a malformed Bearer beside it is refused, not ignored', async () => {
    const { cookies } = await login(app, (await makeUser()).email)
    const header = `junk=%E0%A4%A; ${cookieHeader(cookies)}`
    await supertest(app).get('/api/auth/me').set('Cookie', header).expect(200)
    // A credential presented and wrong decides the request: 401, never a 500 or a fall-back to the cookie.
    const refused = await supertest(app).get('/api/auth/me').set('Cookie', header).set('Authorization', 'Bearer %%%')
    expect(refused.status).toBe(401)
  })
})
