import type { Express } from 'express'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import type { AppContext } from '../src/context.js'
import { OutboxJob } from '../src/models/index.js'
import { jar } from './helpers/cookies.js'
import { mailTo, type ReceivedMail } from './helpers/mail.js'
import { within } from './helpers/requests.js'
import { login, makeUser, PASSWORD, useTestApps, withCookies } from './helpers/test-app.js'

/** The third security audit's findings, each replayed through real HTTP, database and SMTP. */
const t = useTestApps()

let app: Express
let ctx: AppContext
beforeAll(async () => {
  ;({ app, ctx } = await t.build({ auth: { requireEmailVerification: true } }))
})

/** Waits until every job the app queued is done, so what the SMTP server holds is all there will be. */
async function jobsDone(of = ctx): Promise<void> {
  await within(10_000, async () => (await OutboxJob.count({ where: { queue: of.keyPrefix, finishedAt: null, failedAt: null } })) === 0)
}

async function mailsTo(email: string, subject: string, of = ctx): Promise<ReceivedMail[]> {
  await jobsDone(of)
  return (await t.mailServer()).received.filter((mail) => mailTo(email)(mail) && mail.subject === subject)
}

describe('INFO: the Device: line of notices is free text taken from the User-Agent', () => {
  it.each(['Mozilla/5.0 (this was us, no action needed)', 'this was us, no action needed/1.0 (X11; Linux x86_64)'])(
    'a User-Agent of %j gives a notice whose Device line says none of it',
    async (agent) => {
      const user = await makeUser()
      const { cookies } = await login(app, user.email)
      await supertest(app)
        .put('/api/account/password')
        .set(withCookies(cookies))
        .set('User-Agent', agent)
        .send({ current_password: PASSWORD, password: 'the new secret' })
        .expect(200)
      const [notice] = await mailsTo(user.email, 'Your password was changed')
      const device = /^Device: (.*)$/m.exec(notice!.body)![1]!.trim()
      expect(device).not.toMatch(/this was us|no action|Mozilla/i)
      expect(['Unknown device', 'Linux']).toContain(device)
    },
  )

  it('the activity page shows no agent text either', async () => {
    const user = await makeUser()
    const agent = 'Mozilla/5.0 (this was us, no action needed)'
    const res = await supertest(app).post('/api/auth/login').set('User-Agent', agent).send({ email: user.email, password: PASSWORD }).expect(200)
    const cookies = jar(res)
    const activity = await supertest(app).get('/api/account/activity').set(withCookies(cookies)).expect(200)
    const devices = (activity.body.data.data as Array<{ device: string }>).map((event) => event.device)
    expect(devices.length).toBeGreaterThan(0)
    for (const device of devices) expect(device).toBe('Unknown device')
  })
})
