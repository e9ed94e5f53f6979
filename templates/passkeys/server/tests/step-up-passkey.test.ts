import type { Express } from 'express'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { SecurityEvent } from '../src/kernel/models/index.js'
import { SoftwareAuthenticator } from './helpers/authenticator.js'
import { jar } from './helpers/cookies.js'
import { ORIGIN, RP_ID, withPasskey } from './helpers/passkeys.js'
import { makeUser, PASSWORD, useTestApps, withCookies } from './helpers/test-app.js'
import { confirmation as confirmationOf, unconfirm } from './helpers/confirmation.js'

const t = useTestApps()
let app: Express

beforeAll(async () => {
  ;({ app } = await t.build({ auth: { requireEmailVerification: false } }))
})

const confirmation = (cookies: Record<string, string>) => confirmationOf(app, cookies)

async function unconfirmedWithPasskey() {
  const user = await makeUser()
  const held = await withPasskey(app, user.email)
  await unconfirm(user.id)
  return { user, ...held }
}

/** The options for this session, and the assertion `authenticator` makes of them, posted back. */
async function confirmWith(cookies: Record<string, string>, authenticator: SoftwareAuthenticator) {
  const options = await supertest(app).post('/api/account/confirm/passkey/options').set(withCookies(cookies))
  expect(options.status, JSON.stringify(options.body)).toBe(200)
  const withChallenge = jar(options, cookies)
  const response = authenticator.assert(options.body, RP_ID)
  const res = await supertest(app).post('/api/account/confirm/passkey').set(withCookies(withChallenge)).send({ response })
  return { res, options: options.body as { allowCredentials?: { id: string }[] }, withChallenge, response }
}

describe('confirming it is you with a passkey', () => {
  it('offers passkey, names only this account’s passkeys, and an assertion by one of them confirms', async () => {
    const { cookies, authenticator } = await unconfirmedWithPasskey()
    expect((await confirmation(cookies)).body.methods).toEqual(['password', 'passkey'])
    const { res, options } = await confirmWith(cookies, authenticator)
    expect(options.allowCredentials?.map((credential) => credential.id)).toEqual([authenticator.id])
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect((await confirmation(cookies)).body.confirmed_until).toBe(res.body.confirmed_until)
  })

  it('the challenge is good once', async () => {
    const { user, cookies, authenticator } = await unconfirmedWithPasskey()
    const { withChallenge, response } = await confirmWith(cookies, authenticator)
    await unconfirm(user.id)
    const replay = await supertest(app).post('/api/account/confirm/passkey').set(withCookies(withChallenge)).send({ response })
    expect(replay.status).toBe(422)
    expect(replay.body.errors.passkey).toBeDefined()
  })

  it("another account's passkey does not confirm this one", async () => {
    const { cookies } = await unconfirmedWithPasskey()
    const stranger = await makeUser()
    const theirs = await withPasskey(app, stranger.email)
    const { res } = await confirmWith(cookies, theirs.authenticator)
    expect(res.status).toBe(422)
    expect((await confirmation(cookies)).body.confirmed_until).toBeNull()
  })

  it('wrong assertions count toward the 429 of the password-checked routes, each a confirmation_failed', async () => {
    const { user, cookies } = await unconfirmedWithPasskey()
    const unknown = new SoftwareAuthenticator(ORIGIN)
    for (let i = 0; i < 5; i++) expect((await confirmWith(cookies, unknown)).res.status).toBe(422)
    const failed = await SecurityEvent.findAll({ where: { userId: user.id, type: 'confirmation_failed' } })
    expect(failed.map((row) => JSON.parse(row.meta!))).toEqual(Array(5).fill({ method: 'passkey' }))
    const guarded = await supertest(app).delete('/api/account/sessions').set(withCookies(cookies)).send({ password: PASSWORD })
    expect(guarded.status).toBe(429)
  })
})
