import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { User } from '../src/kernel/models/index.js'
import { account } from './helpers/requests.js'
import { login, makeUser, PASSWORD, useTestApps, type TestApp } from './helpers/test-app.js'

/**
 * The class of identity taken from a request body (better-auth CVE-2025-61928): whose account a
 * signed-in request acts on comes from its session alone, never from an id, e-mail or role in
 * the body.
 */
const t = useTestApps()
let app: TestApp['app']
beforeAll(async () => {
  ;({ app } = await t.build())
})

describe('identity never from the body', () => {
  it('a profile change naming another user\'s id, e-mail and role changes only the caller\'s name', async () => {
    const [caller, other] = [await makeUser({ name: 'Caller' }), await makeUser({ name: 'Other' })]
    const { cookies } = await login(app, caller.email)
    const res = await account(app, cookies).profile({ name: 'Renamed', id: other.id, userId: other.id, email: other.email, role: 'admin', roleId: 1 })
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ id: caller.id, name: 'Renamed', email: caller.email, role: 'user' })
    expect((await User.findByPk(other.id))!.name).toBe('Other')
  })

  it('a password change naming another user changes the caller\'s password only', async () => {
    const [caller, other] = [await makeUser(), await makeUser()]
    const { cookies } = await login(app, caller.email)
    await account(app, cookies).changePassword({ current_password: PASSWORD, password: 'a new secret 1', userId: other.id, email: other.email }).expect(200)
    await login(app, other.email, PASSWORD)
    await login(app, caller.email, 'a new secret 1')
  })

  it('deleting the account naming another user deletes the caller', async () => {
    const [caller, other] = [await makeUser(), await makeUser()]
    const { cookies } = await login(app, caller.email)
    await account(app, cookies).remove({ password: PASSWORD, id: other.id, userId: other.id }).expect(204)
    expect(await User.findByPk(caller.id)).toBeNull()
    expect(await User.findByPk(other.id)).not.toBeNull()
  })

  it('a login naming an id or a role signs in the address\'s own account with its own role', async () => {
    const user = await makeUser()
    const res = await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD, id: 1, role: 'admin' })
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ id: user.id, role: 'user' })
  })
})
