import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { EnvError, parseEnv } from '../src/kernel/config/env.js'
import { features } from '../src/features/index.js'
import { config } from '../src/features/passkeys/config.js'
import { envOf } from '../src/kernel/own-settings.js'
import { SecurityEvent, User } from '../src/kernel/models/index.js'
import { Passkey } from '../src/features/passkeys/models/passkey.js'
import { passkeyApi, signInWithPasskey, withPasskey } from './helpers/passkeys.js'
import { jar } from './helpers/cookies.js'
import { me } from './helpers/requests.js'
import { login, makeUser, PASSWORD, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'
import { testSecrets } from './helpers/processes.js'

const t = useTestApps()

describe('GET, PATCH and DELETE /api/account/passkeys', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })

  it('lists the user’s own passkeys, oldest first, without keys or credential ids', async () => {
    const [user, other] = [await makeUser(), await makeUser()]
    const { cookies, passkey } = await withPasskey(app, user.email)
    await withPasskey(app, other.email)
    const res = await passkeyApi(app, cookies).list()
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: [{ id: passkey.id, name: passkey.name, createdAt: expect.any(String), lastUsedAt: null, backedUp: false }] })
  })

  it('lastUsedAt shows the last passkey sign-in', async () => {
    const user = await makeUser()
    const { cookies, authenticator } = await withPasskey(app, user.email)
    await signInWithPasskey(app, authenticator)
    const [listed] = (await passkeyApi(app, cookies).list()).body.data
    expect(Date.now() - new Date(listed.lastUsedAt).getTime()).toBeLessThan(60_000)
  })

  it('renames one: 200 {passkey}; an empty or overlong name is 422', async () => {
    const user = await makeUser()
    const { cookies, passkey } = await withPasskey(app, user.email)
    const api = passkeyApi(app, cookies)
    const res = await api.rename(passkey.id, { name: '  Phone  ' })
    expect(res.status).toBe(200)
    expect(res.body.passkey).toMatchObject({ id: passkey.id, name: 'Phone' })
    expect((await Passkey.findByPk(passkey.id))!.name).toBe('Phone')
    for (const name of ['', 'x'.repeat(101), 'two\nlines']) {
      const bad = await api.rename(passkey.id, { name })
      expect(bad.status).toBe(422)
      expect(Object.keys(bad.body.errors)).toEqual(['name'])
    }
  })

  it('another user’s passkey, an unknown id or a non-number is 404, to rename and to remove', async () => {
    const [user, other] = [await makeUser(), await makeUser()]
    const { cookies } = await withPasskey(app, user.email)
    const theirs = await withPasskey(app, other.email)
    const api = passkeyApi(app, cookies)
    for (const id of [theirs.passkey.id, 99_999_999, 'abc', '1e3']) {
      expect((await api.rename(id, { name: 'Mine now' })).status).toBe(404)
      expect((await api.remove(id)).status).toBe(404)
    }
    expect((await Passkey.findByPk(theirs.passkey.id))!.name).toBe(theirs.passkey.name)
  })

  it('removes one behind the password: 204, passkey_removed, the count and /me follow, and it signs in no more', async () => {
    const user = await makeUser()
    const { cookies, passkey, authenticator } = await withPasskey(app, user.email)
    const api = passkeyApi(app, cookies)
    const wrong = await api.remove(passkey.id, { password: 'not my password' })
    expect(wrong.status).toBe(422)
    expect(Object.keys(wrong.body.errors)).toEqual(['password'])
    expect(await Passkey.count({ where: { userId: user.id } })).toBe(1)

    expect((await api.remove(passkey.id)).status).toBe(204)
    expect(await Passkey.count({ where: { userId: user.id } })).toBe(0)
    expect((await User.findByPk(user.id))!.passkeyCount).toBe(0)
    expect((await me(app, cookies)).body.user.passkeys).toBe(0)
    expect(await SecurityEvent.count({ where: { userId: user.id, type: 'passkey_removed' } })).toBe(1)
    expect((await signInWithPasskey(app, authenticator)).res.status).toBe(401)
  })

  it('removing a passkey ends the sessions it signed in, and only those', async () => {
    const user = await makeUser()
    const { cookies: byPassword, passkey, authenticator } = await withPasskey(app, user.email)
    const signedIn = await signInWithPasskey(app, authenticator)
    expect(signedIn.res.status).toBe(200)
    const byPasskey = { ...signedIn.cookies, ...jar(signedIn.res) }
    await me(app, byPasskey).expect(200)
    expect((await passkeyApi(app, byPassword).remove(passkey.id)).status).toBe(204)
    expect((await me(app, byPasskey)).status).toBe(401)
    await me(app, byPassword).expect(200)
  })

  it('deleting the account deletes its passkeys', async () => {
    const user = await makeUser()
    const { cookies } = await withPasskey(app, user.email)
    await supertest(app).delete('/api/account').set(withCookies(cookies)).send({ password: PASSWORD }).expect(204)
    expect(await Passkey.count({ where: { userId: user.id } })).toBe(0)
  })

  it('a user without passkeys carries passkeys: 0 in login and /me', async () => {
    const user = await makeUser()
    const { res, cookies } = await login(app, user.email)
    expect(res.body.user.passkeys).toBe(0)
    expect((await me(app, cookies)).body.user.passkeys).toBe(0)
  })

  it('live validation (Precognition) checks the body only: no challenge, no password check, nothing removed', async () => {
    const user = await makeUser()
    const { cookies, passkey } = await withPasskey(app, user.email)
    const precognitive = { ...withCookies(cookies), Precognition: 'true' }
    const options = await supertest(app).post('/api/account/passkeys/options').set(precognitive).send({ password: 'wrong but well-formed' })
    expect(options.status).toBe(204)
    expect(options.headers['precognition-success']).toBe('true')
    const removal = await supertest(app).delete(`/api/account/passkeys/${passkey.id}`).set(precognitive).send({ password: 'x' })
    expect(removal.status).toBe(204)
    expect(await Passkey.count({ where: { userId: user.id } })).toBe(1)
    const missing = await supertest(app).post('/api/account/passkeys').set(precognitive).send({})
    expect(missing.status).toBe(422)
    expect(Object.keys(missing.body.errors)).toEqual(['response'])
  })
})

describe('GET /.well-known/passkey-endpoints', () => {
  it('points password managers at the settings page', async () => {
    const { app } = await t.build({ env: { BASE_URL: 'https://app.example.com' } })
    const res = await supertest(app).get('/.well-known/passkey-endpoints')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.body).toEqual({ enroll: 'https://app.example.com/settings/passkeys', manage: 'https://app.example.com/settings/passkeys' })
  })
})

describe('RP_ID', () => {
  const env = (vars: Record<string, string>) => envOf(config, parseEnv({ NODE_ENV: 'test', ...testSecrets(), ...vars }, features))

  it('defaults to BASE_URL’s host name, and may be a parent domain of it', () => {
    expect(env({ BASE_URL: 'https://app.example.com:8443/base' }).RP_ID).toBe('app.example.com')
    expect(env({ BASE_URL: 'https://app.example.com', RP_ID: 'Example.com' }).RP_ID).toBe('example.com')
  })

  it('stops start-up with one line naming it when browsers would refuse it', () => {
    for (const rpId of ['other.com', 'ample.com', 'https://app.example.com', 'app.example.com:443']) {
      let error: unknown
      try {
        env({ BASE_URL: 'https://app.example.com', RP_ID: rpId })
      } catch (thrown) {
        error = thrown
      }
      expect(error, rpId).toBeInstanceOf(EnvError)
      expect((error as EnvError).lines).toHaveLength(1)
      expect((error as EnvError).lines[0]).toMatch(/^Invalid environment variable RP_ID: /)
    }
  })
})
