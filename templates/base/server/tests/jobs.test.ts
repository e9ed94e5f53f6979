import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Redis } from 'ioredis'
import supertest from 'supertest'
import { describe, expect, inject, it } from 'vitest'
import { newOneTimeToken } from '../src/kernel/services/one-time-tokens.js'
import { runDatabaseUrl } from './helpers/database.js'
import { linkIn, mailTo, startMailServer } from './helpers/mail.js'
import { freePort, startScript } from './helpers/processes.js'
import { makeUser, redisLabel, redisUrl, useTestApps } from './helpers/test-app.js'

const t = useTestApps()

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe('in-process queue (no Redis)', () => {
  it('runs user:reset-password after the response', async () => {
    const { app, ctx } = await t.build()
    expect(ctx.queue.driver).toBe('in-process')
    const user = await makeUser()
    const mail = await t.mailServer()
    await supertest(app).post('/api/auth/forgot-password').send({ email: user.email }).expect(200)
    linkIn(await mail.waitFor(mailTo(user.email)), 'reset-password')
  })

  it('retries a job whose mail could not be sent', async () => {
    const port = await freePort()
    const { app, logger } = await t.build({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` }, retryBackoffMs: 300 })
    const user = await makeUser()
    await supertest(app).post('/api/auth/forgot-password').send({ email: user.email }).expect(200)
    await until(() => logger.lines.some((line) => line.includes('user:reset-password failed (attempt 1/3)')))
    const mail = await startMailServer(port)
    try {
      const link = linkIn(await mail.waitFor(mailTo(user.email)), 'reset-password')
      await supertest(app).post('/api/auth/reset-password').send({ email: user.email, token: link.token, password: 'after retry' }).expect(200)
    } finally {
      await mail.close()
    }
  })
})

describe('mail without SMTP_URL', () => {
  it('writes the message to the mail folder and the log', async () => {
    const mailDir = t.tempDir('app-mail-')
    const { app, logger } = await t.build({ smtp: false, mailDir })
    const user = await makeUser()
    await supertest(app).post('/api/auth/forgot-password').send({ email: user.email }).expect(200)
    const messages = () => fs.readdirSync(mailDir).filter((name) => name.endsWith('.eml'))
    const loggedMail = () => logger.records().find((record) => (record.mail as { to?: string } | undefined)?.to === user.email)
    // The file is written before the log line: under load a check between the two saw no line.
    await until(() => messages().length > 0 && loggedMail() !== undefined)
    const file = messages()[0]!
    const source = fs.readFileSync(path.join(mailDir, file), 'utf8')
    expect(source).toContain(`To: ${user.email}`)
    // One JSON object per line: the mail's line breaks are escaped inside its record, so no
    // text can start a line of its own in the log.
    for (const line of logger.lines) expect(() => JSON.parse(line), line).not.toThrow()
    expect((loggedMail()?.mail as { text: string }).text).toContain('/reset-password?token=')
    // The link sits in the file as sent (8bit, not folded or =3D-encoded), ready to use.
    const link = /^Reset password: (http:\/\/localhost:3000\/reset-password\?token=([\w-]+)&email=(\S+))$/m.exec(source)
    expect(link, source).not.toBeNull()
    expect(source).not.toContain('=3D')
    expect(new URL(link![1]!).searchParams.get('email')).toBe(user.email)
    await supertest(app).post('/api/auth/reset-password').send({ email: user.email, token: link![2], password: 'from the file' }).expect(200)
  })
})

describe('one-time tokens', () => {
  it('never start with a hex digit, so undoing quoted-printable on a stored link leaves them intact', () => {
    for (let i = 0; i < 500; i++) expect(newOneTimeToken()).toMatch(/^[g-zG-Z_-][\w-]{42}$/)
  })
})

describe.skipIf(!redisUrl)(`BullMQ on Redis${redisLabel}`, () => {
  it('runs the jobs through Redis, carrying the e-mail and never a token or a password, and keeps no finished job', async () => {
    const keyPrefix = `${inject('keyPrefix')}jobs-${randomUUID().slice(0, 8)}:`
    const enqueuer = await t.build({ redis: true, worker: false, keyPrefix, auth: { requireEmailVerification: true } })
    expect(enqueuer.ctx.queue.driver).toBe('redis')
    const mail = await t.mailServer()
    const user = await makeUser()
    await supertest(enqueuer.app).post('/api/auth/forgot-password').send({ email: user.email }).expect(200)
    await supertest(enqueuer.app).post('/api/auth/register').send({ name: 'N', email: 'New-User@example.test', password: 'password1' }).expect(202)

    const redis = new Redis(redisUrl!)
    const jobData = async () => {
      const jobs: Array<Record<string, string>> = []
      for (const key of await redis.keys(`${keyPrefix}bull:jobs:*`)) if ((await redis.type(key)) === 'hash') jobs.push(await redis.hgetall(key))
      return jobs.filter((job) => job.data)
    }
    try {
      // The outbox hands both jobs to BullMQ right after the answers.
      await until(async () => (await jobData()).length === 2)
      const queued = await jobData()
      expect(queued.map((job) => job.name).sort()).toEqual(['user:reset-password', 'user:verify-email'])
      for (const job of queued) {
        expect(Object.keys(JSON.parse(job.data!))).toContain('email')
        expect(job.data).not.toContain('password1')
      }
      // A registration carries its bcrypt hash, which its verification link will set.
      expect(JSON.parse(queued.find((job) => job.name === 'user:verify-email')!.data!).passwordHash).toMatch(/^\$2[aby]\$\d\d\$/)

      const resetMail = mail.next(mailTo(user.email))
      const verifyMail = mail.next(mailTo('new-user@example.test'))
      await t.build({ redis: true, keyPrefix, auth: { requireEmailVerification: true } })
      const reset = linkIn(await resetMail, 'reset-password')
      const verify = linkIn(await verifyMail, 'verify-email')
      // Finished jobs are deleted at once: no address or hash stays behind in Redis.
      await until(async () => (await jobData()).length === 0)
      for (const job of queued) {
        expect(job.data).not.toContain(reset.token)
        expect(job.data).not.toContain(verify.token)
      }
    } finally {
      await redis.quit()
    }
  })

  it('retries a failed job', async () => {
    const port = await freePort()
    const { app, logger } = await t.build({ redis: true, env: { SMTP_URL: `smtp://127.0.0.1:${port}` }, retryBackoffMs: 300 })
    const user = await makeUser()
    await supertest(app).post('/api/auth/forgot-password').send({ email: user.email }).expect(200)
    await until(() => logger.lines.some((line) => line.includes('user:reset-password failed (attempt 1/3)')))
    const mail = await startMailServer(port)
    try {
      linkIn(await mail.waitFor(mailTo(user.email)), 'reset-password')
    } finally {
      await mail.close()
    }
  })

  it('`npm run worker` processes jobs that a server without a worker enqueued', async () => {
    const prefix = `${inject('keyPrefix')}worker:`
    const { app, ctx } = await t.build({ redis: true, worker: false, keyPrefix: prefix })
    const mail = await t.mailServer()
    const worker = startScript(
      'server/src/cli/worker.ts',
      {
        DATABASE_URL: runDatabaseUrl(),
        REDIS_URL: redisUrl!,
        REDIS_PREFIX: prefix,
        SMTP_URL: mail.url,
        BASE_URL: ctx.env.BASE_URL,
        ...t.secrets,
      },
      /Worker started/,
    )
    try {
      await worker.started
      const user = await makeUser()
      await supertest(app).post('/api/auth/forgot-password').send({ email: user.email }).expect(200)
      const link = linkIn(await mail.waitFor(mailTo(user.email), 15_000), 'reset-password')
      await supertest(app).post('/api/auth/reset-password').send({ email: user.email, token: link.token, password: 'from the worker' }).expect(200)
    } finally {
      expect(await worker.stop()).toBe(0)
    }
  })
})
