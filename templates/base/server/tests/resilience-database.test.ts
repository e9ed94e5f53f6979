import supertest from 'supertest'
import { afterAll, describe, expect, it } from 'vitest'
import { dialectOf } from '../src/kernel/db/database.js'
import { runDatabaseUrl } from './helpers/database.js'
import { tcpProxy, timed } from './helpers/outages.js'
import { within } from './helpers/requests.js'
import { login, makeUser, PASSWORD, useTestApps, withCookies } from './helpers/test-app.js'

const t = useTestApps()
const BOUND_MS = 2000
const databaseUrl = runDatabaseUrl()
const server = dialectOf(databaseUrl) === 'sqlite' ? null : new URL(databaseUrl)

// SQLite is a file in the process: it cannot go down on its own. MySQL and PostgreSQL can.
describe.skipIf(!server)(`database down and back${server ? '' : ' (skipped: SQLite has no server to lose)'}`, () => {
  let proxy: Awaited<ReturnType<typeof tcpProxy>>
  afterAll(async () => {
    await proxy?.close()
  })

  it('answers 503 with Retry-After within 2 s while it is unreachable, and works again within 2 s of its return', async () => {
    proxy = await tcpProxy({ host: server!.hostname, port: Number(server!.port || (server!.protocol.startsWith('postgres') ? 5432 : 3306)) })
    const through = new URL(databaseUrl)
    through.hostname = '127.0.0.1'
    through.port = String(proxy.port)
    const { app } = await t.build({ ownDatabaseUrl: through.toString() })
    const user = await makeUser()
    const session = await login(app, user.email)

    await proxy.cut()
    const answers = [
      await timed(() => supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD })),
      await timed(() => supertest(app).post('/api/auth/forgot-password').send({ email: user.email })),
      await timed(() => supertest(app).get('/api/users').set(withCookies(session.cookies))),
      await timed(() => supertest(app).post('/api/auth/refresh-token').set(withCookies(session.cookies))),
    ]
    for (const { res, ms } of answers) {
      expect(res.status).toBe(503)
      expect(res.body).toEqual({ message: 'Service Unavailable.' })
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
      expect(ms).toBeLessThan(BOUND_MS)
    }
    const health = await timed(() => supertest(app).get('/api/health'))
    expect(health.res.status).toBe(503)
    expect(health.res.body).toMatchObject({ status: 'error', db: 'error' })
    expect(health.ms).toBeLessThan(BOUND_MS)

    await proxy.restore()
    const recovery = await within(BOUND_MS, async () => (await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD })).status === 200)
    console.log(
      `database outage: 503 in ${Math.max(...answers.map((a) => a.ms)).toFixed(0)} ms at most, health in ${health.ms.toFixed(0)} ms; login works ${recovery} ms after its return`,
    )
  }, 30_000)
})
