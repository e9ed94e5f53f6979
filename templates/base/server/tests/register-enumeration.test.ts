import supertest from 'supertest'
import { describe, expect, it } from 'vitest'
import { OutboxJob } from '../src/kernel/models/index.js'
import { within } from './helpers/requests.js'
import { makeUser, PASSWORD, redisLabel, redisUrl, uniqueEmail, useTestApps } from './helpers/test-app.js'

const t = useTestApps()

/**
 * Register with verification on must not tell a taken address from a free one by its timing
 * either. The figure itself is measured in enumeration.test.ts; this is the reason it holds,
 * checked exactly: the request issues the same statements for either address, and none of them
 * reads the users or the verification links (where the job decides what to mail). Jobs stay in
 * Redis here (no worker), so every statement seen is the request's or the outbox relay's.
 */
describe.skipIf(!redisUrl)(`register's work does not depend on the address${redisLabel}`, () => {
  it('the same statements for a taken and a free address, none reading users', async () => {
    const { app, ctx } = await t.build({ auth: { requireEmailVerification: true }, redis: true, worker: false })
    // Sequelize reads its logging option at every query; its type does not show the options.
    const options = (ctx.sequelize as unknown as { options: { logging: unknown } }).options
    const taken = await makeUser({ verified: true })

    async function statementsOf(email: string): Promise<string[]> {
      const statements: string[] = []
      const logging = options.logging
      options.logging = (sql: string) => void statements.push(sql.replace(/^Executing \([^)]*\): /, ''))
      try {
        await supertest(app).post('/api/auth/register').send({ name: 'Same Name', email, password: PASSWORD }).expect(202)
        // Until the relay has handed the job to Redis: its statements are part of what a request causes.
        await within(10_000, async () => (await OutboxJob.count({ where: { queue: ctx.keyPrefix, finishedAt: null } })) === 0)
      } finally {
        options.logging = logging
      }
      // Values differ by nature (the address, the hash, times, ids); the statements must not.
      // Each kind once: the relay's poll for due jobs runs every second, once more in one window than the other.
      return [...new Set(statements.map((sql) => sql.replace(/'(?:[^']|'')*'/g, '?').replace(/\b\d+\b/g, 'N')))].sort()
    }

    const forTaken = await statementsOf(taken.email)
    const forFree = await statementsOf(uniqueEmail('free'))
    expect(forTaken.some((sql) => /INSERT INTO [`"]?outbox_jobs/.test(sql))).toBe(true)
    expect(forTaken).toEqual(forFree)
    for (const sql of forTaken) expect(sql).not.toMatch(/[`"\s]users[`"\s]|email_verification_tokens/)
  })
})
