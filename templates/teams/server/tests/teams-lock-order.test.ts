import { QueryTypes } from 'sequelize'
import { beforeAll, describe, expect, it } from 'vitest'
import { dialectOf } from '../src/kernel/db/database.js'
import { User } from '../src/kernel/models/index.js'
import { runDatabaseUrl } from './helpers/database.js'
import { invitations, invite } from './helpers/invitations.js'
import type { MailServer } from './helpers/mail.js'
import { newTeam, person } from './helpers/teams.js'
import { uniqueEmail, useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()
let app: TestApp['app']
let mail: MailServer
beforeAll(async () => {
  ;({ app } = await t.build())
  mail = await t.mailServer()
})

/**
 * Another change as the security core and the team's lock make one (services/team-lock.ts): the
 * user's row first, then, once `request` has had a second to take what it takes first, the
 * team's row. A request that locked the team before the user would deadlock with it, and the
 * database would end one of the two.
 */
async function whileUserThenTeamLocked<T>(userId: number, teamId: number, request: () => Promise<T>): Promise<{ answer: T; other: PromiseSettledResult<void> }> {
  const sequelize = User.sequelize!
  let locked!: () => void
  const userLocked = new Promise<void>((resolve) => (locked = resolve))
  const other = sequelize.transaction(async (transaction) => {
    await User.findAll({ attributes: ['id'], where: { id: userId }, lock: transaction.LOCK.UPDATE, transaction })
    locked()
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    await sequelize.query('SELECT id FROM teams WHERE id = ? FOR UPDATE', { replacements: [teamId], type: QueryTypes.SELECT, transaction })
  })
  await userLocked
  const answer = await request()
  return { answer, other: (await Promise.allSettled([other]))[0]! }
}

// SQLite runs one writing transaction at a time: no two can wait on each other there.
const sqlite = dialectOf(runDatabaseUrl()) === 'sqlite'
describe.skipIf(sqlite)(`the team's changes lock the user before the team${sqlite ? ' (skipped: SQLite has no row locks)' : ''}`, () => {
  it('accepting an invitation waits for a change holding the user, and both commit', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const invitee = await person(app, 'invitee')
    const link = await invite(app, mail, owner.cookies, teamId, invitee.email)
    const { answer, other } = await whileUserThenTeamLocked(invitee.id, teamId, () => invitations(app, invitee.cookies).accept(link.token).then((res) => res))
    expect(other.status === 'rejected' ? String(other.reason) : 'committed').toBe('committed')
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  })

  it('sending an invitation waits for a change holding the inviter, and both commit', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const { answer, other } = await whileUserThenTeamLocked(owner.id, teamId, () =>
      invitations(app, owner.cookies).send(teamId, { email: uniqueEmail('guest'), role: 'member' }).then((res) => res),
    )
    expect(other.status === 'rejected' ? String(other.reason) : 'committed').toBe('committed')
    expect(answer.status, JSON.stringify(answer.body)).toBe(202)
  })
})
