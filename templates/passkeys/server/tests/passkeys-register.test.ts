import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { SecurityEvent, User } from '../src/kernel/models/index.js'
import { Passkey } from '../src/features/passkeys/models/passkey.js'
import { PasskeyChallenge } from '../src/features/passkeys/models/passkey-challenge.js'
import { SoftwareAuthenticator } from './helpers/authenticator.js'
import { mailTo } from './helpers/mail.js'
import { addPasskey, ORIGIN, passkeyApi, RP_ID, withPasskey } from './helpers/passkeys.js'
import { me } from './helpers/requests.js'
import { login, makeUser, PASSWORD, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

describe('POST /api/account/passkeys/options', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })

  it('answers creation options for this site: discoverable, user-verifying, no attestation, 5 minutes', async () => {
    const user = await makeUser({ name: 'Pat Passkey' })
    const { cookies } = await login(app, user.email)
    const res = await passkeyApi(app, cookies).options()
    expect(res.status).toBe(200)
    expect(res.body.rp).toMatchObject({ id: RP_ID })
    expect(res.body.user).toMatchObject({ name: user.email, displayName: 'Pat Passkey' })
    expect(res.body.challenge).toMatch(/^[A-Za-z0-9_-]{43,}$/)
    expect(res.body.attestation).toBe('none')
    expect(res.body.authenticatorSelection).toMatchObject({ residentKey: 'required', requireResidentKey: true, userVerification: 'required' })
    expect(res.body.timeout).toBe(300_000)
    expect(res.body.excludeCredentials).toEqual([])
    expect(res.body.pubKeyCredParams.map((param: { alg: number }) => param.alg)).toContain(-7)
    // Kept hashed, for this user and session.
    const row = await PasskeyChallenge.findOne({ where: { userId: user.id } })
    expect(row).toMatchObject({ purpose: 'register' })
    expect(row!.id).not.toContain(res.body.challenge)
    expect(row!.sessionId).toBeTruthy()
    expect(row!.expiresAt.getTime() - Date.now()).toBeGreaterThan(290_000)
    expect(row!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(300_000)
  })

  it('lists the user’s passkeys in excludeCredentials, and nobody else’s', async () => {
    const [owner, other] = [await makeUser(), await makeUser()]
    const { cookies, authenticator } = await withPasskey(app, owner.email)
    await withPasskey(app, other.email)
    const res = await passkeyApi(app, cookies).options()
    expect(res.body.excludeCredentials).toEqual([{ id: authenticator.id, type: 'public-key', transports: ['internal'] }])
  })

  it('a wrong password is 422 errors.password and starts nothing', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const res = await passkeyApi(app, cookies).options({ password: 'not my password' })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['password'])
    expect(await PasskeyChallenge.count({ where: { userId: user.id } })).toBe(0)
  })

  it('needs authentication', async () => {
    await supertest(app).post('/api/account/passkeys/options').send({ password: PASSWORD }).expect(401)
    await supertest(app).post('/api/account/passkeys').send({}).expect(401)
    await supertest(app).get('/api/account/passkeys').expect(401)
  })
})

describe('POST /api/account/passkeys', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build())
  })

  it('stores the passkey: 201 with its JSON, the key and the count in the database, /me counts it', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const authenticator = new SoftwareAuthenticator(ORIGIN, { backedUp: true })
    const res = await addPasskey(app, cookies, authenticator, {}, 'Work laptop')
    expect(res.status).toBe(201)
    expect(Object.keys(res.body.passkey).sort()).toEqual(['backedUp', 'createdAt', 'id', 'lastUsedAt', 'name'])
    expect(res.body.passkey).toMatchObject({ name: 'Work laptop', backedUp: true, lastUsedAt: null })
    expect(new Date(res.body.passkey.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000)

    const row = await Passkey.findByPk(res.body.passkey.id)
    expect(row).toMatchObject({ userId: user.id, credentialId: authenticator.id, counter: 0, transports: 'internal', backedUp: true })
    expect(row!.publicKey).toMatch(/^[A-Za-z0-9_-]+$/)
    expect((await User.findByPk(user.id))!.passkeyCount).toBe(1)
    expect((await me(app, cookies)).body.user.passkeys).toBe(1)
    // The challenge is gone: used once.
    expect(await PasskeyChallenge.count({ where: { userId: user.id } })).toBe(0)
  })

  it('names an unnamed passkey after the device it was made on', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const api = passkeyApi(app, cookies)
    const options = await api.options()
    const res = await supertest(app)
      .post('/api/account/passkeys')
      .set(withCookies(cookies))
      .set('User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36')
      .send({ name: '  ', response: new SoftwareAuthenticator(ORIGIN).register(options.body) })
    expect(res.status).toBe(201)
    expect(res.body.passkey.name).toBe('Chrome on Linux')
  })

  it('records passkey_added and mails its notice to the account', async () => {
    const mail = await t.mailServer()
    const user = await makeUser()
    await withPasskey(app, user.email)
    expect(await SecurityEvent.count({ where: { userId: user.id, type: 'passkey_added' } })).toBe(1)
    const notice = await mail.waitFor(mailTo(user.email))
    expect(notice.subject).toBe('A passkey was added to your account')
  })

  const refusals: [string, Parameters<SoftwareAuthenticator['register']>[1]][] = [
    ['another origin', { origin: 'https://evil.example' }],
    ['another RP id', { rpId: 'evil.example' }],
    ['no user verification', { userVerified: false }],
    ['the wrong ceremony type', { type: 'webauthn.get' }],
  ]
  for (const [what, tamper] of refusals) {
    it(`refuses ${what}: 422 errors.response, nothing stored`, async () => {
      const user = await makeUser()
      const { cookies } = await login(app, user.email)
      const res = await addPasskey(app, cookies, new SoftwareAuthenticator(ORIGIN), tamper)
      expect(res.status).toBe(422)
      expect(Object.keys(res.body.errors)).toEqual(['response'])
      expect(await Passkey.count({ where: { userId: user.id } })).toBe(0)
      expect((await User.findByPk(user.id))!.passkeyCount).toBe(0)
    })
  }

  it('a challenge works once: the same response again is 422', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const api = passkeyApi(app, cookies)
    const options = await api.options()
    const response = new SoftwareAuthenticator(ORIGIN).register(options.body)
    expect((await api.add({ response })).status).toBe(201)
    const again = await api.add({ response: new SoftwareAuthenticator(ORIGIN).register(options.body) })
    expect(again.status).toBe(422)
    expect(Object.keys(again.body.errors)).toEqual(['response'])
  })

  it('a challenge the server never gave, another session’s, or another user’s is 422', async () => {
    const [user, other] = [await makeUser(), await makeUser()]
    const first = await login(app, user.email)
    const second = await login(app, user.email)
    const stranger = await login(app, other.email)
    const options = (await passkeyApi(app, first.cookies).options()).body

    const made = await passkeyApi(app, first.cookies).add({ response: new SoftwareAuthenticator(ORIGIN).register(options, { challenge: 'bm90LWdpdmVu' }) })
    expect(made.status).toBe(422)
    const otherSession = await passkeyApi(app, second.cookies).add({ response: new SoftwareAuthenticator(ORIGIN).register(options) })
    expect(otherSession.status).toBe(422)
    const otherUser = await passkeyApi(app, stranger.cookies).add({ response: new SoftwareAuthenticator(ORIGIN).register(options) })
    expect(otherUser.status).toBe(422)
    // None of them used it up: its own session still can.
    expect((await passkeyApi(app, first.cookies).add({ response: new SoftwareAuthenticator(ORIGIN).register(options) })).status).toBe(201)
  })

  it('an expired challenge is 422', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const api = passkeyApi(app, cookies)
    const options = await api.options()
    await PasskeyChallenge.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { userId: user.id } })
    const res = await api.add({ response: new SoftwareAuthenticator(ORIGIN).register(options.body) })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['response'])
  })

  it('a credential already registered, by this user or another, is 422', async () => {
    const [user, other] = [await makeUser(), await makeUser()]
    const { authenticator } = await withPasskey(app, user.email)
    const mine = await login(app, user.email)
    expect((await addPasskey(app, mine.cookies, authenticator)).status).toBe(422)
    const theirs = await login(app, other.email)
    const res = await addPasskey(app, theirs.cookies, authenticator)
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['response'])
    expect(await Passkey.count({ where: { credentialId: authenticator.id } })).toBe(1)
  })

  it('credential ids differing only in case are two credentials (no case-folding collation)', async () => {
    const user = await makeUser()
    const { authenticator } = await withPasskey(app, user.email)
    const flipped = authenticator.id.replace(/[a-z]/, (c) => c.toUpperCase())
    expect(flipped).not.toBe(authenticator.id)
    expect(await Passkey.findOne({ where: { credentialId: flipped } })).toBeNull()
  })

  it('a malformed response or an overlong name is 422 on its field', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const api = passkeyApi(app, cookies)
    for (const response of [undefined, 'text', {}, { id: 'abc', rawId: 'abc', type: 'public-key', response: {} }]) {
      const res = await api.add({ response })
      expect(res.status).toBe(422)
      expect(Object.keys(res.body.errors)).toEqual(['response'])
    }
    const options = await api.options()
    const long = await api.add({ name: 'x'.repeat(101), response: new SoftwareAuthenticator(ORIGIN).register(options.body) })
    expect(long.status).toBe(422)
    expect(Object.keys(long.body.errors)).toEqual(['name'])
  })

  it('a challenge started on one instance is finished on another', async () => {
    const { app: other } = await t.build()
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const options = await passkeyApi(app, cookies).options()
    const res = await passkeyApi(other, cookies).add({ response: new SoftwareAuthenticator(ORIGIN).register(options.body) })
    expect(res.status).toBe(201)
  })

  it('a password change voids a registration under way (its sessions end, and so does the ceremony)', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    const options = await passkeyApi(app, cookies).options()
    const changed = await supertest(app).put('/api/account/password').set(withCookies(cookies)).send({ current_password: PASSWORD, password: 'a brand new password 1' })
    expect(changed.status).toBe(200)
    // This session stays signed in; the challenge it started does not survive.
    const res = await passkeyApi(app, cookies).add({ response: new SoftwareAuthenticator(ORIGIN).register(options.body) })
    expect(res.status).toBe(422)
    expect(await PasskeyChallenge.count({ where: { userId: user.id } })).toBe(0)
  })
})
