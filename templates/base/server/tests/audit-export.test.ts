import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import type { Express } from 'express'
import { parse } from 'csv-parse/sync'
import { Op } from 'sequelize'
import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SecurityEvent } from '../src/kernel/models/index.js'
import { EXPORT_PAGE_SIZE, EXPORTED_FIELDS } from '../src/kernel/security/activity-export.js'
import { within } from './helpers/requests.js'
import { login, makeUser, PASSWORD, useTestApps, withCookies } from './helpers/test-app.js'

const t = useTestApps()

const DAY = 24 * 3600 * 1000
/**
 * Midnight (UTC) 40 days ago. The seeded events sit on the days after it, apart from what the
 * tests' own sign-ins record (now) and younger than the 90 days events are kept.
 */
const DAY0 = Math.floor(Date.now() / DAY) * DAY - 40 * DAY
const day = (n: number) => new Date(DAY0 + n * DAY).toISOString().slice(0, 10)
/** Whole seconds: MySQL's DATETIME keeps no milliseconds. */
const at = (n: number, time: string) => new Date(`${day(n)}T${time}Z`)
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0'
const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15'

type Seeded = Partial<Pick<SecurityEvent, 'userId' | 'type' | 'ip' | 'userAgent' | 'meta'>> & { createdAt: Date }

/** Rows straight into `security_events`, a thousand an INSERT, in one transaction. */
async function seed(rows: Seeded[]): Promise<void> {
  await SecurityEvent.sequelize!.transaction(async (transaction) => {
    for (let first = 0; first < rows.length; first += 1000) {
      const batch = rows.slice(first, first + 1000).map((row) => ({
        userId: null, type: 'sign_in', sessionId: null, ip: '192.0.2.1', userAgent: FIREFOX, device: null, network: null, meta: null, ...row,
      }))
      await SecurityEvent.bulkCreate(batch, { transaction })
    }
  })
}

let app: Express
let base: string
let server: http.Server
let admin: Record<string, string>
let member: Record<string, string>
let memberId: number

beforeAll(async () => {
  ;({ app } = await t.build())
  server = app.listen(0, '127.0.0.1')
  await once(server, 'listening')
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  admin = (await login(app, (await makeUser({ role: 'admin' })).email)).cookies
  const user = await makeUser()
  memberId = user.id
  member = (await login(app, user.email)).cookies
})

afterAll(async () => {
  server.closeAllConnections()
  server.close()
  // This worker's later files share the database.
  await SecurityEvent.destroy({ where: { createdAt: { [Op.gte]: new Date(DAY0), [Op.lt]: new Date(DAY0 + 20 * DAY) } } })
})

const exportOf = (query: string, cookies: Record<string, string> = admin) => fetch(`${base}/api/activity/export${query}`, { headers: withCookies(cookies) })

async function ndjson(query: string): Promise<Array<Record<string, unknown>>> {
  const res = await exportOf(`${query}&format=ndjson`)
  expect(res.status).toBe(200)
  const lines = (await res.text()).split('\n')
  expect(lines.pop()).toBe('')
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>)
}

async function csvText(query: string): Promise<string> {
  const res = await exportOf(`${query}&format=csv`)
  expect(res.status).toBe(200)
  return res.text()
}

const csv = async (query: string) => parse(await csvText(query), { columns: true }) as Array<Record<string, string>>

const marks = (rows: Array<Record<string, unknown>>) => rows.map((row) => (row.meta as { mark: string }).mark)

describe('GET /api/activity/export', () => {
  beforeAll(async () => {
    await seed([
      { createdAt: at(0, '00:00:00'), meta: JSON.stringify({ mark: 'A' }), userId: memberId },
      { createdAt: at(0, '12:00:00'), meta: JSON.stringify({ mark: 'B' }), type: 'sign_in_failed', userAgent: SAFARI },
      { createdAt: at(0, '23:59:59'), meta: JSON.stringify({ mark: 'C', note: 'a "quoted", comma\nand a line break' }), ip: '2001:db8::1', userAgent: null },
      { createdAt: at(1, '00:00:00'), meta: JSON.stringify({ mark: 'D' }), type: 'password_changed' },
      { createdAt: at(2, '10:00:00'), meta: JSON.stringify({ mark: 'E' }) },
    ])
  })

  it('is for admins: 401 signed out, 403 for a user; an attachment of the right type in each format', async () => {
    expect((await exportOf('', {})).status).toBe(401)
    const forbidden = await exportOf('?format=csv', member)
    expect(forbidden.status).toBe(403)
    expect(await forbidden.json()).toEqual({ message: 'Forbidden.' })

    for (const [format, type] of [['ndjson', 'application/x-ndjson'], ['csv', 'text/csv; charset=utf-8']] as const) {
      const res = await exportOf(`?from=${day(0)}&to=${day(0)}&format=${format}`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe(type)
      expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="security-events-[\\dTZ-]+\\.${format}"$`))
      expect(res.headers.get('cache-control')).toBe('no-store')
      await res.arrayBuffer()
    }
    // Without a format: NDJSON.
    expect((await exportOf(`?from=${day(0)}&to=${day(0)}`)).headers.get('content-type')).toBe('application/x-ndjson')
  })

  it('exports the range: a day counts whole (UTC), date-times are inclusive and read with their offset', async () => {
    expect(marks(await ndjson(`?from=${day(0)}&to=${day(0)}`))).toEqual(['A', 'B', 'C'])
    expect(marks(await ndjson(`?from=${day(1)}&to=${day(2)}`))).toEqual(['D', 'E'])
    expect(marks(await ndjson(`?from=${day(0)}T12:00:00Z&to=${day(1)}T00:00:00Z`))).toEqual(['B', 'C', 'D'])
    expect(marks(await ndjson(`?from=${day(0)}T13:00:00%2B01:00&to=${day(0)}T23:59:58Z`))).toEqual(['B'])
    expect(marks((await ndjson(`?from=&to=${day(0)}`)).slice(-3))).toEqual(['A', 'B', 'C'])
    expect(await ndjson(`?from=${day(19)}&to=${day(19)}`)).toEqual([])
  })

  it('writes each event whole: NDJSON objects with meta as an object, CSV per RFC 4180 with the same cells', async () => {
    const lines = await ndjson(`?from=${day(0)}&to=${day(1)}`)
    for (const line of lines) expect(Object.keys(line)).toEqual([...EXPORTED_FIELDS])
    const ids = (await SecurityEvent.findAll({ where: { createdAt: { [Op.gte]: at(0, '00:00:00'), [Op.lt]: at(2, '00:00:00') } }, order: [['id', 'ASC']] })).map((row) => row.id)
    expect(lines.map((line) => line.id)).toEqual(ids)
    expect(lines[0]).toEqual({ id: ids[0], userId: memberId, type: 'sign_in', ip: '192.0.2.1', device: 'Firefox on Linux', meta: { mark: 'A' }, createdAt: at(0, '00:00:00').toISOString() })
    expect(lines.map((line) => line.device)).toEqual(['Firefox on Linux', 'Safari on macOS', 'Unknown device', 'Firefox on Linux'])
    expect(lines[2]!.meta).toEqual({ mark: 'C', note: 'a "quoted", comma\nand a line break' })

    const text = await csvText(`?from=${day(0)}&to=${day(1)}`)
    expect(text.split('\r\n')[0]).toBe('id,userId,type,ip,device,meta,createdAt')
    expect(text.endsWith('\r\n')).toBe(true)
    const rows = parse(text, { columns: true }) as Array<Record<string, string>>
    expect(rows).toEqual(lines.map((line) => ({
      id: String(line.id),
      userId: line.userId === null ? '' : String(line.userId),
      type: line.type,
      ip: line.ip,
      device: line.device,
      meta: JSON.stringify(line.meta),
      createdAt: line.createdAt,
    })))
  })

  it('prefixes CSV cells that a spreadsheet would run as a formula (=, +, -, @, tab, CR) with a quote; NDJSON keeps them as they are', async () => {
    const payloads = ['=cmd()', '+cmd()', '-cmd()', '@cmd()', '\tcmd()', '\rcmd()']
    await seed([
      ...payloads.map((ip, i) => ({ createdAt: at(5, `10:00:0${i}`), ip })),
      { createdAt: at(5, '11:00:00'), meta: '=HYPERLINK("https://evil.example","x")' },
      // Stored JSON starts with `{`: a name inside it is no formula, and the cell stays the JSON.
      { createdAt: at(5, '11:00:01'), meta: JSON.stringify({ passkey: '=cmd()' }) },
      { createdAt: at(5, '11:00:02'), ip: '203.0.113.9' },
      { createdAt: at(5, '11:00:03'), meta: 'two\rlines,\n"quoted"' },
    ])
    const rows = await csv(`?from=${day(5)}&to=${day(5)}`)
    expect(rows.map((row) => row.ip)).toEqual([...payloads.map((ip) => `'${ip}`), '192.0.2.1', '192.0.2.1', '203.0.113.9', '192.0.2.1'])
    expect(rows.map((row) => row.meta).slice(-4)).toEqual(['\'=HYPERLINK("https://evil.example","x")', '{"passkey":"=cmd()"}', '', 'two\rlines,\n"quoted"'])
    for (const row of rows) for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/)

    const lines = await ndjson(`?from=${day(5)}&to=${day(5)}`)
    expect(lines.map((line) => line.ip).slice(0, 6)).toEqual(payloads)
    expect(lines.map((line) => line.meta).slice(-4)).toEqual(['=HYPERLINK("https://evil.example","x")', { passkey: '=cmd()' }, null, 'two\rlines,\n"quoted"'])
  })

  it('neutralises what a client sent: a formula as X-Forwarded-For behind a trusted proxy', async () => {
    const since = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000).toISOString()
    const user = await makeUser()
    const proxied = await t.build({ env: { TRUST_PROXY: '1' } })
    await supertest(proxied.app).post('/api/auth/login').set('X-Forwarded-For', '=cmd()').send({ email: user.email, password: `${PASSWORD}!` }).expect(422)
    const rows = (await csv(`?from=${since}`)).filter((row) => row.userId === String(user.id))
    expect(rows).toMatchObject([{ type: 'sign_in_failed', ip: "'=cmd()" }])
  })

  it('answers a bad query with 422 and the field, never a 500', async () => {
    const cases: Array<[string, string]> = [
      ['?format=xml', 'format'],
      ['?format=CSV', 'format'],
      ['?from=yesterday', 'from'],
      [`?from=${day(0).slice(0, 4)}-02-30`, 'from'],
      [`?to=${day(0)}T10:00:00`, 'to'],
      [`?from=${day(2)}&to=${day(1)}`, 'to'],
      [`?from=${day(1)}T00:00:00Z&to=${day(0)}T23:59:59Z`, 'to'],
      [`?from=${day(0)}&from=${day(1)}`, 'from'],
    ]
    for (const [query, field] of cases) {
      const res = await exportOf(query)
      expect(res.status, query).toBe(422)
      const body = (await res.json()) as { message: string; errors: Record<string, string[]> }
      expect(Object.keys(body.errors), query).toEqual([field])
      expect(body.message).toBe(body.errors[field]![0])
    }
    expect((await exportOf('?format=xml', member)).status).toBe(403)
  })
})

describe('a large export', () => {
  const COUNT = 100_000
  const PAGES = Math.ceil(COUNT / EXPORT_PAGE_SIZE)
  // 100,000 seconds from day 10: the range covers exactly the seeded events.
  const range = `?from=${day(10)}&to=${new Date(DAY0 + 10 * DAY + (COUNT - 1) * 1000).toISOString()}`
  let ids: number[]

  beforeAll(async () => {
    const types = ['sign_in', 'sign_in_failed', 'sign_out', 'password_changed']
    await seed(Array.from({ length: COUNT }, (_, i) => ({
      createdAt: new Date(DAY0 + 10 * DAY + i * 1000),
      type: types[i % types.length]!,
      userAgent: i % 3 ? FIREFOX : SAFARI,
      ip: `198.51.100.${i % 250}`,
      meta: JSON.stringify({ i }),
    })))
    ids = (await SecurityEvent.findAll({ attributes: ['id'], where: { createdAt: { [Op.gte]: new Date(DAY0 + 10 * DAY), [Op.lt]: new Date(DAY0 + 10 * DAY + COUNT * 1000) } }, order: [['id', 'ASC']] })).map((row) => row.id)
    expect(ids).toHaveLength(COUNT)
  }, 120_000)

  it(`exports all ${COUNT.toLocaleString('en')} events once each, in id order, in both formats`, async () => {
    const lines = await ndjson(range)
    expect(lines).toHaveLength(COUNT)
    expect(lines.map((line) => line.id)).toEqual(ids)
    expect(lines.map((line) => (line.meta as { i: number }).i)).toEqual(lines.map((_, i) => i))

    const rows = await csv(range)
    expect(rows).toHaveLength(COUNT)
    expect(rows.map((row) => Number(row.id))).toEqual(ids)
  }, 120_000)

  it('reads a page only once the client took the last: a paused client holds it at a few pages, one that leaves ends it', async () => {
    // Over a Unix socket, whose kernel buffer is small and fixed (TCP on loopback grows its own
    // to megabytes), so the pages read while the client waits measure the server's own buffering.
    const socketPath = path.join(t.tempDir('audit-export-'), 'http.sock')
    const local = app.listen(socketPath)
    await once(local, 'listening')
    const pageReads = vi.spyOn(SecurityEvent, 'findAll')
    const reads = () => pageReads.mock.calls.filter(([options]) => options?.limit === EXPORT_PAGE_SIZE).length
    try {
      const req = http.get({ socketPath, path: `/api/activity/export${range}&format=csv`, headers: withCookies(admin) })
      const [res] = (await once(req, 'response')) as [http.IncomingMessage]
      expect(res.statusCode).toBe(200)
      res.pause()
      // The buffers fill, the server's writes wait for 'drain', and no page is read meanwhile.
      await settled(reads)
      const paused = reads()
      expect(paused).toBeGreaterThan(0)
      expect(paused).toBeLessThanOrEqual(PAGES / 10)

      req.destroy()
      await within(5000, async () => res.destroyed)
      await settled(reads)
      expect(reads()).toBeLessThanOrEqual(paused + 1)
    } finally {
      pageReads.mockRestore()
      local.close()
    }
  })
})

/** Until `count` has not changed for 300 ms. */
async function settled(count: () => number): Promise<void> {
  let last = -1
  await within(10_000, async () => {
    const now = count()
    if (now === last) return true
    last = now
    await new Promise((resolve) => setTimeout(resolve, 300))
    return false
  })
}
