import { createHash } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueResetLink } from '../src/kernel/services/password-reset.js'
import { linkIn, mailTo } from './helpers/mail.js'
import { account } from './helpers/requests.js'
import { freePort, runScript, scratchDatabase, testSecrets } from './helpers/processes.js'
import { login, makeUser, PASSWORD, uniqueEmail, useTestApps, type MemoryLogger, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

/** A password the stand-in says appeared in breaches. */
const BREACHED = 'P@ssw0rd-from-a-breach'
const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase()
const MESSAGE = 'This password has appeared in a data breach; choose another.'

/**
 * A local stand-in for the range API, answering as the real one does with padding: the breached
 * password's suffix with a count, and padding lines with a count of 0 (one of them the suffix of
 * `PADDED_ONLY`, which must therefore be accepted). It records what it was sent.
 */
const PADDED_ONLY = 'only-in-the-padding-1'
interface StandIn {
  url: string
  requests: Array<{ url: string; padding: string | undefined }>
  close(): Promise<void>
}

async function startStandIn(behaviour: 'answer' | 'hang' = 'answer'): Promise<StandIn> {
  const requests: StandIn['requests'] = []
  const hanging: http.ServerResponse[] = []
  const server = http.createServer((req, res) => {
    requests.push({ url: req.url ?? '', padding: req.headers['add-padding'] as string | undefined })
    if (behaviour === 'hang') return void hanging.push(res)
    const lines: string[] = []
    for (const password of [BREACHED, PADDED_ONLY]) {
      const hash = sha1(password)
      if (req.url === `/range/${hash.slice(0, 5)}`) lines.push(`${hash.slice(5)}:${password === BREACHED ? 3861493 : 0}`)
    }
    for (let i = 0; i < 5; i++) lines.push(`${'0'.repeat(34)}${i}:0`)
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end(lines.join('\r\n'))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => {
      for (const res of hanging) res.destroy()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

let standIn: StandIn
let app: TestApp['app']
let logger: MemoryLogger
beforeAll(async () => {
  standIn = await startStandIn()
  ;({ app, logger } = await t.build({ auth: { requireEmailVerification: false }, env: { PWNED_PASSWORDS: 'on', PWNED_PASSWORDS_URL: standIn.url } }))
})
afterAll(() => standIn.close())

function expectRefused(res: supertest.Response): void {
  expect(res.status).toBe(422)
  expect(res.body.errors.password).toEqual([MESSAGE])
}

describe('a breached password is refused wherever a password is set', () => {
  it('register (verification off and on)', async () => {
    expectRefused(await supertest(app).post('/api/auth/register').send({ name: 'B', email: uniqueEmail('b'), password: BREACHED }))
    const verifying = (await t.build({ auth: { requireEmailVerification: true }, env: { PWNED_PASSWORDS: 'on', PWNED_PASSWORDS_URL: standIn.url } })).app
    expectRefused(await supertest(verifying).post('/api/auth/register').send({ name: 'B', email: uniqueEmail('b'), password: BREACHED }))
    await supertest(app).post('/api/auth/register').send({ name: 'B', email: uniqueEmail('b'), password: 'a fine fresh secret' }).expect(201)
  })

  it('reset: refused, and the link still works for a better password', async () => {
    const user = await makeUser()
    const token = await issueResetLink(user)
    expectRefused(await supertest(app).post('/api/auth/reset-password').send({ email: user.email, token, password: BREACHED }))
    await supertest(app).post('/api/auth/reset-password').send({ email: user.email, token, password: 'a fine fresh secret' }).expect(200)
  })

  it('change', async () => {
    const user = await makeUser()
    const { cookies } = await login(app, user.email)
    expectRefused(await account(app, cookies).changePassword({ current_password: PASSWORD, password: BREACHED }))
    await account(app, cookies).changePassword({ current_password: PASSWORD, password: 'a fine fresh secret' }).expect(200)
  })

  it('a choose-a-password link', async () => {
    const { app: verifying } = await t.build({ auth: { requireEmailVerification: true }, env: { PWNED_PASSWORDS: 'on', PWNED_PASSWORDS_URL: standIn.url } })
    const user = await makeUser()
    const arriving = (await t.mailServer()).next(mailTo(user.email))
    await supertest(verifying).post('/api/auth/resend-verification').send({ email: user.email }).expect(200)
    const link = linkIn(await arriving, 'verify-email')
    expectRefused(await supertest(verifying).post('/api/auth/verify-email').send({ email: link.email, token: link.token, password: BREACHED }))
    await supertest(verifying).post('/api/auth/verify-email').send({ email: link.email, token: link.token, password: 'a fine fresh secret' }).expect(200)
  })

  it('user:create', async () => {
    const scratch = await scratchDatabase()
    try {
      const env = { ...testSecrets(), DATABASE_URL: scratch.url, PWNED_PASSWORDS: 'on', PWNED_PASSWORDS_URL: standIn.url }
      expect((await runScript('server/src/cli/migrate.ts', [], env)).code).toBe(0)
      const refused = await runScript('server/src/cli/user-create.ts', ['--name', 'Admin', '--email', uniqueEmail('cli'), '--password', BREACHED], env)
      expect(refused.code).toBe(1)
      expect(refused.stderr.trim()).toBe(`--password: ${MESSAGE}`)
    } finally {
      await scratch.drop()
    }
  })
})

describe('what leaves, and when the service is away', () => {
  it('only the first 5 characters of the SHA-1 are sent, with Add-Padding; a suffix only in the padding is not a match', async () => {
    const before = standIn.requests.length
    await supertest(app).post('/api/auth/register').send({ name: 'P', email: uniqueEmail('p'), password: PADDED_ONLY }).expect(201)
    const sent = standIn.requests.slice(before)
    expect(sent).toEqual([{ url: `/range/${sha1(PADDED_ONLY).slice(0, 5)}`, padding: 'true' }])
    for (const request of standIn.requests) {
      expect(request.url).toMatch(/^\/range\/[0-9A-F]{5}$/)
      expect(request.url).not.toContain(sha1(BREACHED).slice(5, 12))
    }
  })

  it.each(['down', 'hanging'] as const)('a %s service: the password is accepted within 2.5 s, with a warning in the log', async (state) => {
    const hanging = state === 'hanging' ? await startStandIn('hang') : undefined
    const url = hanging?.url ?? `http://127.0.0.1:${await freePort()}`
    try {
      const built = await t.build({ auth: { requireEmailVerification: false }, env: { PWNED_PASSWORDS: 'on', PWNED_PASSWORDS_URL: url } })
      const started = Date.now()
      await supertest(built.app).post('/api/auth/register').send({ name: 'D', email: uniqueEmail('d'), password: BREACHED }).expect(201)
      expect(Date.now() - started).toBeLessThan(2500)
      expect(built.logger.lines.join('\n')).toMatch(/breached-password check could not be made/)
    } finally {
      await hanging?.close()
    }
  })

  it('PWNED_PASSWORDS=off sends nothing', async () => {
    const before = standIn.requests.length
    const { app: off } = await t.build({ auth: { requireEmailVerification: false }, env: { PWNED_PASSWORDS: 'off', PWNED_PASSWORDS_URL: standIn.url } })
    await supertest(off).post('/api/auth/register').send({ name: 'O', email: uniqueEmail('o'), password: BREACHED }).expect(201)
    expect(standIn.requests.length).toBe(before)
    expect(logger.lines.join('\n')).not.toMatch(/breached-password check could not be made/)
  })
})
