import supertest from 'supertest'
import { afterAll, describe, expect, it } from 'vitest'
import { dialectOf } from '../src/kernel/db/database.js'
import { runDatabaseUrl } from './helpers/database.js'
import { startDnsServer } from './helpers/dns-server.js'
import { tcpProxy } from './helpers/outages.js'
import { within } from './helpers/requests.js'
import { newUser, scimErrorBody, scimTeam } from './helpers/scim.js'
import { useTestApps } from './helpers/test-app.js'

const t = useTestApps()
const databaseUrl = runDatabaseUrl()
const server = dialectOf(databaseUrl) === 'sqlite' ? null : new URL(databaseUrl)

// As the kernel's resilience-database test: the app reaches its database through a proxy the test cuts.
describe.skipIf(!server)(`/scim/v2 while the database is down${server ? '' : ' (skipped: SQLite has no server to lose)'}`, () => {
  let proxy: Awaited<ReturnType<typeof tcpProxy>> | undefined
  let dns: Awaited<ReturnType<typeof startDnsServer>> | undefined
  afterAll(async () => {
    await proxy?.close()
    await dns?.close()
  })

  it("answers SCIM's error body with 503 and the kernel's Retry-After, and works again once it is back", async () => {
    dns = await startDnsServer()
    proxy = await tcpProxy({ host: server!.hostname, port: Number(server!.port || (server!.protocol.startsWith('postgres') ? 5432 : 3306)) })
    const through = new URL(databaseUrl)
    through.hostname = '127.0.0.1'
    through.port = String(proxy.port)
    const { app } = await t.build({ ownDatabaseUrl: through.toString(), auth: { requireEmailVerification: false }, env: { SSO_DNS_SERVER: dns.address } })
    const { scim, email, token } = await scimTeam(app, dns)
    expect((await scim.get('/Users')).status).toBe(200)

    await proxy.cut()
    for (const res of [await scim.get('/Users'), await scim.post('/Users', newUser(email())), await supertest(app).get('/scim/v2/Groups').set('Authorization', `Bearer ${token}`)]) {
      expect(res.status).toBe(503)
      expect(res.headers['content-type']).toMatch(/^application\/scim\+json/)
      expect(res.body).toEqual(scimErrorBody(503))
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
    }

    await proxy.restore()
    await within(2000, async () => (await scim.get('/Users')).status === 200)
  }, 30_000)
})
