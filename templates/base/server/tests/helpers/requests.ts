import type { Express } from 'express'
import supertest from 'supertest'
import { names, withCookies } from './test-app.js'

/** The account and auth calls the account tests make, with a browser's cookie jar. */
export const me = (app: Express, cookies: Record<string, string>) => supertest(app).get('/api/auth/me').set(withCookies(cookies))

export const accessOnly = (cookies: Record<string, string>) => ({ [names().access]: cookies[names().access]! })
export const refreshOnly = (cookies: Record<string, string>) => ({ [names().refresh]: cookies[names().refresh]! })

export const account = (app: Express, cookies: Record<string, string>) => ({
  profile: (body: object) => supertest(app).patch('/api/account/profile').set(withCookies(cookies)).send(body),
  changeEmail: (body: object) => supertest(app).post('/api/account/email').set(withCookies(cookies)).send(body),
  changePassword: (body: object) => supertest(app).put('/api/account/password').set(withCookies(cookies)).send(body),
  remove: (body: object) => supertest(app).delete('/api/account').set(withCookies(cookies)).send(body),
  sessions: () => supertest(app).get('/api/account/sessions').set(withCookies(cookies)),
  revokeSession: (id: string) => supertest(app).delete(`/api/account/sessions/${encodeURIComponent(id)}`).set(withCookies(cookies)),
  revokeOthers: (body: object) => supertest(app).delete('/api/account/sessions').set(withCookies(cookies)).send(body),
})

/** Polls until `check` holds; returns how long it took. */
export async function within(limitMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now()
  while (!(await check())) {
    if (Date.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return Date.now() - started
}
