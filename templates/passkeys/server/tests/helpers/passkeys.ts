import type { Express } from 'express'
import supertest from 'supertest'
import { SoftwareAuthenticator, type Tamper } from './authenticator.js'
import { jar } from './cookies.js'
import { login, PASSWORD, withCookies } from './test-app.js'

/** The test apps' BASE_URL: their RP id is its host name. */
export const ORIGIN = 'http://localhost:3000'
export const RP_ID = 'localhost'

export const passkeyApi = (app: Express, cookies: Record<string, string>) => ({
  options: (body: object = { password: PASSWORD }) => supertest(app).post('/api/account/passkeys/options').set(withCookies(cookies)).send(body),
  add: (body: object) => supertest(app).post('/api/account/passkeys').set(withCookies(cookies)).send(body),
  list: () => supertest(app).get('/api/account/passkeys').set(withCookies(cookies)),
  rename: (id: number | string, body: object) => supertest(app).patch(`/api/account/passkeys/${id}`).set(withCookies(cookies)).send(body),
  remove: (id: number | string, body: object = { password: PASSWORD }) =>
    supertest(app).delete(`/api/account/passkeys/${id}`).set(withCookies(cookies)).send(body),
})

/** Asks for registration options and answers them with `authenticator` (tampered as told). */
export async function addPasskey(app: Express, cookies: Record<string, string>, authenticator: SoftwareAuthenticator, tamper: Tamper = {}, name?: string) {
  const api = passkeyApi(app, cookies)
  const options = await api.options()
  if (options.status !== 200) throw new Error(`options: ${options.status} ${JSON.stringify(options.body)}`)
  return api.add({ ...(name === undefined ? {} : { name }), response: authenticator.register(options.body, tamper) })
}

/** A signed-in user with one passkey: its session's cookies, the authenticator and the passkey's JSON. */
export async function withPasskey(app: Express, email: string, options: ConstructorParameters<typeof SoftwareAuthenticator>[1] = {}) {
  const { cookies } = await login(app, email)
  const authenticator = new SoftwareAuthenticator(ORIGIN, options)
  const res = await addPasskey(app, cookies, authenticator)
  if (res.status !== 201) throw new Error(`add passkey: ${res.status} ${JSON.stringify(res.body)}`)
  return { cookies, authenticator, passkey: res.body.passkey as { id: number; name: string } }
}

/** `POST /api/auth/passkey/options`: the options, and the `{name}_webauthn` cookie that carries their challenge. */
export async function signInOptions(app: Express) {
  const res = await supertest(app).post('/api/auth/passkey/options')
  if (res.status !== 200) throw new Error(`sign-in options: ${res.status} ${JSON.stringify(res.body)}`)
  return { options: res.body as { challenge: string; rpId?: string }, cookies: jar(res), res }
}

/** A whole passkey sign-in; `tamper` bends the assertion, `body` adds to what is posted. */
export async function signInWithPasskey(app: Express, authenticator: SoftwareAuthenticator, tamper: Tamper = {}, body: object = {}) {
  const { options, cookies } = await signInOptions(app)
  const response = authenticator.assert(options, RP_ID, tamper)
  const res = await supertest(app).post('/api/auth/passkey').set(withCookies(cookies)).send({ response, ...body })
  return { res, response, cookies }
}
