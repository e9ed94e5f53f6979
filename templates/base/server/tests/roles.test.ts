import express from 'express'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { errorHandler } from '../src/kernel/http/error-handler.js'
import { authenticate } from '../src/kernel/auth/authenticate.js'
import { requireRole } from '../src/kernel/auth/require-role.js'
import { Role } from '../src/kernel/models/index.js'
import { login, makeUser, useTestApps, withCookies, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

describe('roles', () => {
  it('admin and user are seeded by the migrations', async () => {
    await t.database()
    const roles = (await Role.findAll()).map((role) => role.name).sort()
    expect(roles).toEqual(['admin', 'user'])
  })
})

describe('requireRole after authenticate', () => {
  let built: TestApp
  let guarded: express.Express
  beforeAll(async () => {
    built = await t.build()
    // A route of the app's own kind: public, authenticated, admin-only. No cookie middleware:
    // authenticate reads the cookies it needs.
    guarded = express()
    guarded.get('/public', (_req, res) => void res.json({ ok: true }))
    guarded.get('/any', authenticate(built.ctx), (req, res) => void res.json({ id: req.auth?.id }))
    guarded.get('/admin', authenticate(built.ctx), requireRole('admin'), (_req, res) => void res.json({ ok: true }))
    guarded.use(errorHandler(built.ctx.logger))
  })

  it('public routes need nothing', async () => {
    await supertest(guarded).get('/public').expect(200)
  })

  it('401 Unauthenticated. without a session, on both guarded routes', async () => {
    for (const path of ['/any', '/admin', '/api/users']) {
      const res = await supertest(path.startsWith('/api') ? built.app : guarded).get(path)
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ message: 'Unauthenticated.' })
    }
  })

  it('403 Forbidden. for another role; authentication alone is enough for /any', async () => {
    const user = await makeUser({ role: 'user' })
    const { cookies } = await login(built.app, user.email)
    const any = await supertest(guarded).get('/any').set(withCookies(cookies))
    expect(any.status).toBe(200)
    expect(any.body.id).toBe(user.id)
    for (const [app, path] of [[guarded, '/admin'], [built.app, '/api/users']] as const) {
      const res = await supertest(app).get(path).set(withCookies(cookies))
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ message: 'Forbidden.' })
    }
  })

  it('200 for an admin', async () => {
    const admin = await makeUser({ role: 'admin' })
    const { cookies } = await login(built.app, admin.email)
    await supertest(guarded).get('/admin').set(withCookies(cookies)).expect(200)
    await supertest(built.app).get('/api/users').set(withCookies(cookies)).expect(200)
  })

  it('a user without a role (role deleted) is forbidden, not an admin', async () => {
    const user = await makeUser({ role: 'user' })
    await user.update({ roleId: null })
    const { cookies } = await login(built.app, user.email)
    await supertest(guarded).get('/admin').set(withCookies(cookies)).expect(403)
  })
})
