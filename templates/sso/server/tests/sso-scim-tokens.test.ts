import type { Express } from 'express'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { ScimToken } from '../src/features/sso/models/scim-token.js'
import { SecurityEvent } from '../src/kernel/models/index.js'
import { unconfirm } from './helpers/confirmation.js'
import { newUser, scimClient, scimErrorBody, scimTeam, scimTokens } from './helpers/scim.js'
import { type SsoApp, useSsoApp } from './helpers/sso.js'
import { addMember, newTeam, person, personalTeamOf, staffedTeam } from './helpers/teams.js'
import { useTestApps, withCookies } from './helpers/test-app.js'

const t = useTestApps()
const ssoApp = useSsoApp(t)
let app: Express
let dns: SsoApp['dns']

beforeAll(() => {
  ;({ app, dns } = ssoApp)
})

describe("a team's SCIM tokens", () => {
  it('are made by an owner: shown once, kept as a hash, listed by prefix without the token', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const res = await scimTokens(app, owner.cookies, teamId).create()
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ id: expect.any(Number), token: expect.stringMatching(/^scim_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/) })
    const token = res.body.token as string
    const secret = token.split('_').slice(2).join('_')

    const row = (await ScimToken.findByPk(res.body.id))!
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(row.toJSON())).not.toContain(secret)

    const list = await scimTokens(app, owner.cookies, teamId).list()
    expect(list.status).toBe(200)
    expect(list.body).toEqual({ scim_tokens: [{ id: res.body.id, prefix: token.split('_').slice(0, 2).join('_'), created_at: expect.any(String), last_used_at: null }] })
    expect(JSON.stringify(list.body)).not.toContain(secret)

    expect((await scimClient(app, token).get('/Users')).status).toBe(200)
    await expect.poll(async () => (await scimTokens(app, owner.cookies, teamId).list()).body.scim_tokens[0].last_used_at).not.toBeNull()

    const event = await SecurityEvent.findOne({ where: { userId: owner.id, type: 'sso_scim_token_created' }, order: [['id', 'DESC']] })
    expect(JSON.parse(event!.meta!)).toEqual({ teamId, prefix: list.body.scim_tokens[0].prefix })
  })

  it('need step-up, are for owners alone (an admin 403, an outsider 404), and not for a personal team', async () => {
    const { owner, admin, member, outsider, teamId } = await staffedTeam(app)
    expect((await scimTokens(app, admin.cookies, teamId).create()).status).toBe(403)
    expect((await scimTokens(app, admin.cookies, teamId).list()).status).toBe(403)
    expect((await scimTokens(app, member.cookies, teamId).create()).status).toBe(403)
    expect((await scimTokens(app, outsider.cookies, teamId).create()).status).toBe(404)
    expect((await scimTokens(app, owner.cookies, (await personalTeamOf(owner.id)).id).create()).status).toBe(422)
    await unconfirm(owner.id)
    const unconfirmed = await scimTokens(app, owner.cookies, teamId).create()
    expect(unconfirmed.status).toBe(403)
    expect(unconfirmed.body.errors).toEqual({ confirm: [expect.any(String)] })
    expect(await ScimToken.count({ where: { teamId } })).toBe(0)
  })

  it('are revoked by an owner: 204, then the token is a 401; another team cannot revoke it', async () => {
    const { owner, teamId, tokenId, scim } = await scimTeam(app, dns)
    const other = await person(app, 'other')
    const otherTeam = await newTeam(app, other)
    expect((await scimTokens(app, other.cookies, otherTeam).revoke(tokenId)).status).toBe(404)
    expect((await scim.get('/Users')).status).toBe(200)

    expect((await scimTokens(app, owner.cookies, teamId).revoke(tokenId)).status).toBe(204)
    const refused = await scim.get('/Users')
    expect(refused.status).toBe(401)
    expect(refused.body).toEqual(scimErrorBody(401))
    expect((await scimTokens(app, owner.cookies, teamId).list()).body.scim_tokens).toEqual([])
    expect(await SecurityEvent.count({ where: { userId: owner.id, type: 'sso_scim_token_revoked' } })).toBe(1)
    expect((await scimTokens(app, owner.cookies, teamId).revoke(tokenId)).status).toBe(404)
  })
})

describe('what a SCIM token opens', () => {
  it('opens /scim/v2 alone: under /api it is held to SCIM, a 403 as a missing scope', async () => {
    const { token, scim } = await scimTeam(app, dns)
    expect((await scim.get('/ServiceProviderConfig')).status).toBe(200)
    for (const path of ['/api/auth/me', '/api/teams', '/api/account/activity']) {
      const res = await supertest(app).get(path).set('Authorization', `Bearer ${token}`)
      expect(res.status, path).toBe(403)
      expect(res.body, path).toEqual({ message: 'The key used lacks the scope this needs.' })
    }
  })

  it('is the one way into /scim/v2: a signed-in owner\'s session is a 401 there', async () => {
    const { owner } = await scimTeam(app, dns)
    const res = await supertest(app).get('/scim/v2/Users').set(withCookies(owner.cookies))
    expect(res.status).toBe(401)
    expect(res.body).toEqual(scimErrorBody(401))
  })

  it.each([
    ['no header', null],
    ['a made-up token', `scim_ABCDEFGHIJKL_${'a'.repeat(43)}`],
    ['a malformed one', 'scim_x'],
  ])('is a 401 with the SCIM error body for %s', async (_case, token) => {
    const res = await scimClient(app, token).get('/Users')
    expect(res.status).toBe(401)
    expect(res.headers['content-type']).toMatch(/^application\/scim\+json/)
    expect(res.body).toEqual(scimErrorBody(401))
  })

  it('is a 401 with the right lookup id and a wrong secret', async () => {
    const { token } = await scimTeam(app, dns)
    const wrong = `${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`
    expect((await scimClient(app, wrong).get('/Users')).status).toBe(401)
  })

  it("shows its own team's users only: another team's member is a 404 and in no list", async () => {
    const ours = await scimTeam(app, dns)
    const theirs = await scimTeam(app, dns)
    const created = await theirs.scim.post('/Users', newUser(theirs.email()))
    expect(created.status).toBe(201)
    const outsider = await person(app, 'outsider')
    await addMember(theirs.teamId, outsider.id)

    const list = await ours.scim.get('/Users')
    expect(list.body.Resources.map((user: { id: string }) => user.id)).toEqual([String(ours.owner.id)])
    expect((await ours.scim.get(`/Users/${created.body.id}`)).status).toBe(404)
    expect((await ours.scim.get(`/Users/${outsider.id}`)).status).toBe(404)
    expect((await ours.scim.get(`/Users?filter=${encodeURIComponent(`userName eq "${created.body.userName}"`)}`)).body.totalResults).toBe(0)
    expect((await ours.scim.delete(`/Users/${created.body.id}`)).status).toBe(404)
    expect((await ours.scim.patch(`/Users/${created.body.id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', value: { active: false } }] })).status).toBe(404)
    expect((await theirs.scim.get(`/Users/${created.body.id}`)).body.active).toBe(true)
  })
})

describe('discovery', () => {
  it('describes the service: patch and filter supported, no bulk, no sort, bearer tokens', async () => {
    const { scim } = await scimTeam(app, dns)
    const config = await scim.get('/ServiceProviderConfig')
    expect(config.status).toBe(200)
    expect(config.headers['content-type']).toMatch(/^application\/scim\+json/)
    expect(config.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
      patch: { supported: true },
      filter: { supported: true, maxResults: 200 },
      bulk: { supported: false },
      sort: { supported: false },
      authenticationSchemes: [expect.objectContaining({ type: 'oauthbearertoken' })],
    })
    const types = await scim.get('/ResourceTypes')
    expect(types.body.Resources.map((type: { id: string; endpoint: string }) => [type.id, type.endpoint])).toEqual([['User', '/Users'], ['Group', '/Groups']])
    expect((await scim.get('/ResourceTypes/User')).body.schema).toBe('urn:ietf:params:scim:schemas:core:2.0:User')
    const schemas = await scim.get('/Schemas')
    expect(schemas.body.Resources.map((schema: { id: string }) => schema.id)).toEqual(expect.arrayContaining(['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:core:2.0:Group']))
    expect((await scim.get('/Schemas/urn:ietf:params:scim:schemas:core:2.0:User')).body.name).toBe('User')
  })

  it('answers an unknown endpoint 404 and a body it cannot read 400, in the SCIM error body', async () => {
    const { token, scim } = await scimTeam(app, dns)
    expect((await scim.get('/Bulk')).body).toEqual(scimErrorBody(404))
    const broken = await supertest(app).post('/scim/v2/Users').set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/scim+json').send('{"userName":')
    expect(broken.status).toBe(400)
    expect(broken.body).toEqual(scimErrorBody(400, 'invalidSyntax'))
    const huge = await scim.post('/Users', newUser('x@example.test', { displayName: 'x'.repeat(200_000) }))
    expect(huge.status).toBe(413)
    expect(huge.body).toEqual(scimErrorBody(413))
  })
})
