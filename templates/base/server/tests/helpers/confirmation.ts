import type { Express } from 'express'
import supertest from 'supertest'
import { Session } from '../../src/kernel/models/index.js'
import { withCookies } from './test-app.js'

/** `GET /api/account/confirm`: whether the session is confirmed (step-up), and how it can be. */
export const confirmation = (app: Express, cookies: Record<string, string>) => supertest(app).get('/api/account/confirm').set(withCookies(cookies))

/** `POST /api/account/confirm` with `{password}` or a layer's field (`{code}`). */
export const confirm = (app: Express, cookies: Record<string, string>, body: object) =>
  supertest(app).post('/api/account/confirm').set(withCookies(cookies)).send(body)

/** As if the user's confirmations (a sign-in's among them) had run out. */
export const unconfirm = (userId: number) => Session.update({ confirmedUntil: null }, { where: { userId } })
