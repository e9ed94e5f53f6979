import type { Express } from 'express'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { TeamMember } from '../src/features/teams/models/team-member.js'
import { SecurityEvent, User } from '../src/kernel/models/index.js'
import { jar } from './helpers/cookies.js'
import { postAnswer, samlTeam, type SsoApp, startSso, uniqueDomain, useSsoApp } from './helpers/sso.js'
import { makeUser, useTestApps, withCookies } from './helpers/test-app.js'

const t = useTestApps()
const ssoApp = useSsoApp(t)
let app: Express
let dns: SsoApp['dns']

beforeAll(() => {
  ;({ app, dns } = ssoApp)
})

describe('Continue with SSO', () => {
  it("sends an address of a verified domain to its team's IdP with a SAML request", async () => {
    const team = await samlTeam(app, dns)
    const { redirect, requestId } = await startSso(app, team.email())
    const url = new URL(redirect)
    expect(`${url.origin}${url.pathname}`).toBe(team.idp.ssoUrl)
    expect(requestId).toMatch(/^_/)
  })

  it('answers 422 errors.email for an address without a connection: an unknown domain, one only claimed, one whose team has no connection', async () => {
    const team = await samlTeam(app, dns)
    for (const email of [`someone@${uniqueDomain()}`, 'someone@example.test']) {
      const res = await supertest(app).post('/api/auth/sso').send({ email })
      expect(res.status).toBe(422)
      expect(Object.keys(res.body.errors)).toEqual(['email'])
    }
    await supertest(app).delete(`/api/teams/${team.teamId}/sso`).set(withCookies(team.owner.cookies)).expect(204)
    expect((await supertest(app).post('/api/auth/sso').send({ email: team.email() })).status).toBe(422)
  })
})

describe("signing in with the IdP's answer", () => {
  it('makes the account just in time, verified and with a password nobody knows, a member of the team with the default role, and signs it in', async () => {
    const team = await samlTeam(app, dns, { default_role: 'admin' })
    const email = team.email()
    const { requestId } = await startSso(app, email)
    const res = await postAnswer(app, team.teamId, team.idp.answer({ email, inResponseTo: requestId, audience: team.sp.entity_id, recipient: team.sp.acs_url, name: 'Jo Just-in-time' }))
    expect(res.status).toBe(303)
    expect(res.headers.location).toBe('/')
    const me = await supertest(app).get('/api/auth/me').set(withCookies(jar(res)))
    expect(me.status).toBe(200)
    expect(me.body.user).toMatchObject({ email, name: 'Jo Just-in-time', emailVerifiedAt: expect.any(String) })

    const user = (await User.findOne({ where: { email } }))!
    expect(user.password).toMatch(/^\$2[aby]\$/)
    expect((await TeamMember.findOne({ where: { teamId: team.teamId, userId: user.id } }))?.role).toBe('admin')
    const event = await SecurityEvent.findOne({ where: { userId: user.id, type: 'sso_sign_in' } })
    expect(JSON.parse(event!.meta!)).toEqual({ teamId: team.teamId, created: true })
    expect(await SecurityEvent.count({ where: { userId: user.id, type: 'sign_in' } })).toBe(1)
  })

  it('signs an existing account of the domain in, joining the team, and keeps a membership it has', async () => {
    const team = await samlTeam(app, dns)
    const existing = await makeUser({ email: team.email('existing') })
    const { requestId } = await startSso(app, existing.email)
    const res = await postAnswer(app, team.teamId, team.idp.answer({ email: existing.email, inResponseTo: requestId, audience: team.sp.entity_id, recipient: team.sp.acs_url }))
    expect(res.headers.location).toBe('/')
    expect((await supertest(app).get('/api/auth/me').set(withCookies(jar(res)))).body.user.id).toBe(existing.id)
    expect((await TeamMember.findOne({ where: { teamId: team.teamId, userId: existing.id } }))?.role).toBe('member')
    expect(await User.count({ where: { email: existing.email } })).toBe(1)

    const { requestId: next } = await startSso(app, existing.email)
    await TeamMember.update({ role: 'admin' }, { where: { teamId: team.teamId, userId: existing.id } })
    await postAnswer(app, team.teamId, team.idp.answer({ email: existing.email, inResponseTo: next, audience: team.sp.entity_id, recipient: team.sp.acs_url }))
    expect((await TeamMember.findOne({ where: { teamId: team.teamId, userId: existing.id } }))?.role).toBe('admin')
  })

  it('takes an answer whose response and assertion are both signed, and one within two minutes of its validity', async () => {
    const team = await samlTeam(app, dns)
    for (const answer of [{ sign: 'both' as const }, { notBefore: 90 }, { notOnOrAfter: -90 }]) {
      const email = team.email()
      const { requestId } = await startSso(app, email)
      const res = await postAnswer(app, team.teamId, team.idp.answer({ email, inResponseTo: requestId, audience: team.sp.entity_id, recipient: team.sp.acs_url, ...answer }))
      expect(res.headers.location, JSON.stringify(answer)).toBe('/')
    }
  })
})
