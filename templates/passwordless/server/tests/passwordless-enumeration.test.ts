import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { User } from '../src/kernel/models/index.js'
import { setCookies } from './helpers/cookies.js'
import { mailTo } from './helpers/mail.js'
import { emailSignInApi } from './helpers/passwordless.js'
import { makeUser, uniqueEmail, useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
let app: TestApp['app']

beforeAll(async () => {
  ;({ app } = await t.build())
})

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

describe('asking for a sign-in mail tells no address apart', () => {
  it('the same status, body and cookies for an account and for an address without one; only the account is mailed', async () => {
    const api = emailSignInApi(app)
    const mail = await t.mailServer()
    const user = await makeUser()
    const unknown = uniqueEmail('ghost')
    const a = await api.ask({ email: unknown })
    const b = await api.ask({ email: user.email })
    expect(a.status).toBe(202)
    expect(b.status).toBe(202)
    expect(a.body).toEqual(b.body)
    // The expiry aside, which is a second later when the clock turns meanwhile.
    const shape = (res: typeof a) => [...setCookies(res).values()].map(({ name, attributes: { expires: _, ...attributes } }) => ({ name, attributes }))
    expect(shape(a)).toEqual(shape(b))
    await mail.waitFor(mailTo(user.email))
    expect(mail.received.some(mailTo(unknown))).toBe(false)
    expect(await User.count({ where: { email: unknown } })).toBe(0)
  })

  it('takes comparable time either way (the mail is a job in both cases)', async () => {
    const api = emailSignInApi(app)
    const known = await Promise.all(Array.from({ length: 8 }, () => makeUser()))
    const timings = { known: [] as number[], unknown: [] as number[] }
    for (const user of known) {
      for (const [kind, email] of [['known', user.email], ['unknown', uniqueEmail('ghost')]] as const) {
        const started = performance.now()
        expect((await api.ask({ email })).status).toBe(202)
        timings[kind].push(performance.now() - started)
      }
    }
    // Generous on purpose: a loaded machine shifts both; a lookup or a mail on one path only would not.
    expect(median(timings.unknown)).toBeGreaterThan(median(timings.known) / 4)
    expect(median(timings.known)).toBeGreaterThan(median(timings.unknown) / 4)
  })

  it('a wrong code answers alike for an account with a live mail and for an address without any', async () => {
    const api = emailSignInApi(app)
    const user = await makeUser()
    await api.ask({ email: user.email })
    await (await t.mailServer()).waitFor(mailTo(user.email))
    const a = await api.verify({ email: user.email, code: '000000' })
    const b = await api.verify({ email: uniqueEmail('ghost'), code: '000000' })
    expect(a.status).toBe(422)
    expect(a.body).toEqual(b.body)
  })
})

describe('the request never waits for the mail', () => {
  let stalled: net.Server
  const sockets = new Set<net.Socket>()
  afterAll(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => stalled.close(resolve))
  })

  it('answers 202 at once while the SMTP server never answers', async () => {
    // Accepts connections and says nothing: a mail sent inline would hang the request.
    stalled = net.createServer((socket) => void sockets.add(socket))
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve))
    const { app: hanging } = await t.build({ env: { SMTP_URL: `smtp://127.0.0.1:${(stalled.address() as AddressInfo).port}` } })
    const user = await makeUser()
    const started = Date.now()
    const res = await emailSignInApi(hanging).ask({ email: user.email })
    expect(res.status).toBe(202)
    expect(Date.now() - started).toBeLessThan(2_000)
  })
})
