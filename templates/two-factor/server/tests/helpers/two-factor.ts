import type { Express } from 'express'
import { Secret, TOTP } from 'otpauth'
import supertest from 'supertest'
import { jar } from './cookies.js'
import { login, PASSWORD, withCookies } from './test-app.js'

export const twoFactorApi = (app: Express, cookies: Record<string, string>) => ({
  enable: (body: object = { password: PASSWORD }) => supertest(app).post('/api/account/two-factor').set(withCookies(cookies)).send(body),
  confirm: (body: object) => supertest(app).post('/api/account/two-factor/confirm').set(withCookies(cookies)).send(body),
  disable: (body: object = { password: PASSWORD }) => supertest(app).delete('/api/account/two-factor').set(withCookies(cookies)).send(body),
  regenerate: (body: object = { password: PASSWORD }) =>
    supertest(app).post('/api/account/two-factor/recovery-codes').set(withCookies(cookies)).send(body),
})

const PERIOD_MS = 30_000

/**
 * The code of `secret` for the step `offset` steps from now (the server accepts -1, 0 and +1).
 * Made at least 2 s before a step boundary, so the server reads the same "now".
 */
export async function codeFor(secret: string, offset = 0): Promise<string> {
  const left = PERIOD_MS - (Date.now() % PERIOD_MS)
  if (left < 2_000) await new Promise((resolve) => setTimeout(resolve, left + 50))
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + offset * PERIOD_MS })
}

/** A code of the step before now: every test's first accepted code, so the current and next steps stay fresh. */
export const earlierCode = (secret: string) => codeFor(secret, -1)

/** A six-digit code that is none of the three the server accepts now. */
export async function wrongCode(secret: string): Promise<string> {
  const valid = new Set([await codeFor(secret, -1), await codeFor(secret, 0), await codeFor(secret, 1)])
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0')
    if (!valid.has(code)) return code
  }
}

/** Signs in, turns two-factor authentication on with a code of the previous step, and returns what the user now holds. */
export async function withTwoFactor(app: Express, email: string) {
  const { cookies } = await login(app, email)
  const api = twoFactorApi(app, cookies)
  const started = await api.enable()
  if (started.status !== 200) throw new Error(`enable failed: ${started.status} ${JSON.stringify(started.body)}`)
  const secret = started.body.secret as string
  const confirmed = await api.confirm({ code: await earlierCode(secret) })
  if (confirmed.status !== 200) throw new Error(`confirm failed: ${confirmed.status} ${JSON.stringify(confirmed.body)}`)
  return { cookies, secret, recoveryCodes: confirmed.body.recovery_codes as string[] }
}

/** The password step of a login for a user with two-factor authentication: the challenge cookie it leaves. */
export async function passwordStep(app: Express, email: string, remember?: boolean) {
  const res = await supertest(app)
    .post('/api/auth/login')
    .send({ email, password: PASSWORD, ...(remember === undefined ? {} : { remember }) })
  if (res.status !== 200 || res.body.two_factor !== true) throw new Error(`password step: ${res.status} ${JSON.stringify(res.body)}`)
  return { res, cookies: jar(res) }
}

export const answerChallenge = (app: Express, cookies: Record<string, string>, body: object) =>
  supertest(app).post('/api/auth/two-factor-challenge').set(withCookies(cookies)).send(body)
