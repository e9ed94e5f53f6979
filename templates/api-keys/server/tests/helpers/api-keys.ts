import type { Express } from 'express'
import supertest from 'supertest'
import { login, withCookies } from './test-app.js'

/** The key routes with a browser's cookie jar. */
export const apiKeyApi = (app: Express, cookies: Record<string, string>) => ({
  create: (body: object) => supertest(app).post('/api/account/api-keys').set(withCookies(cookies)).send(body),
  list: () => supertest(app).get('/api/account/api-keys').set(withCookies(cookies)),
  rename: (id: number | string, body: object) => supertest(app).patch(`/api/account/api-keys/${id}`).set(withCookies(cookies)).send(body),
  revoke: (id: number | string) => supertest(app).delete(`/api/account/api-keys/${id}`).set(withCookies(cookies)),
})

/** `Authorization: Bearer <key>`. */
export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` })

/** Signs the user in and makes a key through the API (a sign-in confirms its session): what the user now holds. */
export async function withApiKey(app: Express, email: string, body: { name?: string; scopes?: string[]; expires_in?: string | number | null } = {}) {
  const { cookies } = await login(app, email)
  const res = await apiKeyApi(app, cookies).create({ name: 'Deploy script', scopes: ['read', 'write'], ...body })
  if (res.status !== 201) throw new Error(`API key: ${res.status} ${JSON.stringify(res.body)}`)
  return { cookies, key: res.body.key as string, apiKey: res.body.api_key as { id: number; name: string; prefix: string; scopes: string[] } }
}

/** `GET /api/auth/me` with the key alone. */
export const meWith = (app: Express, key: string) => supertest(app).get('/api/auth/me').set(bearer(key))
