import type { Express } from 'express'
import supertest from 'supertest'
import { jar } from './cookies.js'
import { callback } from './oauth.js'
import { authorizeAt } from './oauth-flow.js'
import { PASSWORD, withCookies } from './test-app.js'

/**
 * Links `provider` to the signed-in account of `cookies` from settings, through the provider's
 * pages as `login`. Linking needs a confirmed session (step-up): one whose confirmation a
 * revoking event ended confirms with the test password first.
 */
export async function linkProvider(app: Express, cookies: Record<string, string>, provider: string, login: string) {
  const state = await supertest(app).get('/api/account/confirm').set(withCookies(cookies))
  if (state.body.confirmed_until === null) await supertest(app).post('/api/account/confirm').set(withCookies(cookies)).send({ password: PASSWORD }).expect(200)
  const res = await supertest(app).post(`/api/account/connections/${provider}`).set(withCookies(cookies))
  if (res.status !== 200) throw new Error(`link: ${res.status} ${JSON.stringify(res.body)}`)
  return callback(app, await authorizeAt(res.body.url, login), jar(res, cookies))
}
