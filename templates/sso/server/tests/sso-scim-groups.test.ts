import type { Express } from 'express'
import { beforeAll, describe, expect, it } from 'vitest'
import { TeamInvitation } from '../src/features/teams/models/invitation.js'
import { startInvitation } from '../src/features/teams/services/invitations.js'
import { SecurityEvent, User } from '../src/kernel/models/index.js'
import { newUser, scimErrorBody, scimTeam } from './helpers/scim.js'
import { type SsoApp, useSsoApp } from './helpers/sso.js'
import { person, roleIn, teams } from './helpers/teams.js'
import { useTestApps } from './helpers/test-app.js'

const t = useTestApps()
const ssoApp = useSsoApp(t)
let app: Express
let dns: SsoApp['dns']

beforeAll(() => {
  ;({ app, dns } = ssoApp)
})

/** A SCIM team with one provisioned member: its SCIM client and the member's id. */
async function teamWithMember() {
  const team = await scimTeam(app, dns)
  const created = await team.scim.post('/Users', newUser(team.email()))
  expect(created.status).toBe(201)
  return { ...team, userId: created.body.id as string }
}

const members = (group: { members?: { value: string }[] }) => (group.members ?? []).map((member) => member.value)

describe("a team's groups are its roles", () => {
  it('lists admin and member with their members (never the owner), and finds one by displayName', async () => {
    const { scim, userId } = await teamWithMember()
    const list = await scim.get('/Groups')
    expect(list.status).toBe(200)
    expect(list.body.Resources.map((group: { id: string; displayName: string }) => [group.id, group.displayName])).toEqual([['admin', 'admin'], ['member', 'member']])
    expect(members(list.body.Resources[1])).toEqual([userId])
    expect(members(list.body.Resources[0])).toEqual([])
    const found = await scim.get(`/Groups?filter=${encodeURIComponent('displayName eq "admin"')}&excludedAttributes=members`)
    expect(found.body.totalResults).toBe(1)
    expect(found.body.Resources[0]).not.toHaveProperty('members')
    expect((await scim.get('/Groups/owner')).body).toEqual(scimErrorBody(404))
  })

  it("sets the role as Okta sends it: add to admin, remove by a filtered path", async () => {
    const { scim, teamId, userId } = await teamWithMember()
    const added = await scim.patchOps('/Groups/admin', { op: 'add', path: 'members', value: [{ value: userId, display: 'x' }] })
    expect(added.status).toBe(200)
    expect(members(added.body)).toEqual([userId])
    expect(await roleIn(teamId, Number(userId))).toBe('admin')
    const event = await SecurityEvent.findOne({ where: { userId: Number(userId), type: 'sso_scim_role_changed' } })
    expect(JSON.parse(event!.meta!)).toEqual({ teamId, from: 'member', to: 'admin' })

    const removed = await scim.patchOps('/Groups/admin', { op: 'remove', path: `members[value eq "${userId}"]` })
    expect(removed.status).toBe(200)
    expect(await roleIn(teamId, Number(userId))).toBe('member')
  })

  it('sets the role as Entra ID sends it: Add and Remove with a value list', async () => {
    const { scim, teamId, userId } = await teamWithMember()
    expect((await scim.patchOps('/Groups/admin', { op: 'Add', path: 'members', value: [{ value: userId }] })).status).toBe(200)
    expect(await roleIn(teamId, Number(userId))).toBe('admin')
    expect((await scim.patchOps('/Groups/admin', { op: 'Remove', path: 'members', value: [{ value: userId }] })).status).toBe(200)
    expect(await roleIn(teamId, Number(userId))).toBe('member')
    // Adding to member makes an admin a member again too.
    await scim.patchOps('/Groups/admin', { op: 'Add', path: 'members', value: [{ value: userId }] })
    expect((await scim.patchOps('/Groups/member', { op: 'Add', path: 'members', value: [{ value: userId }] })).status).toBe(200)
    expect(await roleIn(teamId, Number(userId))).toBe('member')
  })

  it("replaces a group's members with PUT", async () => {
    const { scim, teamId, userId } = await teamWithMember()
    await scim.patchOps('/Groups/admin', { op: 'add', path: 'members', value: [{ value: userId }] })
    const res = await scim.put('/Groups/admin', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'admin', members: [] })
    expect(res.status).toBe(200)
    expect(members(res.body)).toEqual([])
    expect(await roleIn(teamId, Number(userId))).toBe('member')
  })

  it("changes a role as the teams layer does: an admin made a member loses the invitations they sent; the team's activity shows it", async () => {
    const { scim, teamId, userId, owner } = await teamWithMember()
    expect((await scim.patchOps('/Groups/admin', { op: 'add', path: 'members', value: [{ value: userId }] })).status).toBe(200)
    const invitationId = await User.sequelize!.transaction((transaction) =>
      startInvitation({ teamId, email: `guest-${Date.now()}@example.com`, role: 'member', invitedBy: Number(userId) }, transaction),
    )
    expect((await scim.patchOps('/Groups/admin', { op: 'remove', path: `members[value eq "${userId}"]` })).status).toBe(200)
    expect(await roleIn(teamId, Number(userId))).toBe('member')
    expect(await TeamInvitation.findByPk(invitationId)).toBeNull()
    const activity = (await teams(app, owner.cookies).activity(teamId)).body.data.data as { type: string }[]
    expect(activity.filter((event) => event.type === 'member_role_changed')).toHaveLength(2)
    const changed = await SecurityEvent.findAll({ where: { userId: Number(userId), type: 'member_role_changed' }, order: [['id', 'ASC']] })
    expect(changed.map((event) => JSON.parse(event.meta!))).toEqual([
      { teamId, from: 'member', to: 'admin', via: 'scim' },
      { teamId, from: 'admin', to: 'member', via: 'scim' },
    ])
  })

  it("never changes an owner's role, nor takes in someone outside the team", async () => {
    const { scim, owner, teamId } = await teamWithMember()
    const stranger = await person(app, 'stranger')
    expect((await scim.patchOps('/Groups/admin', { op: 'add', path: 'members', value: [{ value: String(owner.id) }] })).body).toEqual(scimErrorBody(400, 'mutability'))
    expect(await roleIn(teamId, owner.id)).toBe('owner')
    expect((await scim.patchOps('/Groups/admin', { op: 'add', path: 'members', value: [{ value: String(stranger.id) }] })).body).toEqual(scimErrorBody(400, 'invalidValue'))
    expect(await roleIn(teamId, stranger.id)).toBeUndefined()
  })

  it('has no other groups: creating one is 409 (it exists) or 400, deleting one 400, renaming one 400', async () => {
    const { scim } = await teamWithMember()
    expect((await scim.post('/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'admin' })).body).toEqual(scimErrorBody(409, 'uniqueness'))
    expect((await scim.post('/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Engineering' })).body).toEqual(scimErrorBody(400, 'invalidValue'))
    expect((await scim.delete('/Groups/member')).body).toEqual(scimErrorBody(400, 'mutability'))
    expect((await scim.patchOps('/Groups/member', { op: 'replace', value: { displayName: 'everyone' } })).body).toEqual(scimErrorBody(400, 'mutability'))
  })
})
