import type { Express } from 'express'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { SecurityEvent } from '../src/kernel/models/index.js'
import { jar } from './helpers/cookies.js'
import { postAnswer, samlTeam, sso, type SsoApp, startSso, useSsoApp } from './helpers/sso.js'
import { type MemoryLogger, useTestApps, withCookies } from './helpers/test-app.js'

const t = useTestApps()
const ssoApp = useSsoApp(t)
let app: Express
let logger: MemoryLogger
let dns: SsoApp['dns']

beforeAll(() => {
  ;({ app, logger, dns } = ssoApp)
})

const lastRefusal = () => logger.records().filter((record) => record.msg === 'sso: SAML answer refused').at(-1)?.reason

/** An answer the app asked for none of: what an IdP's portal posts when a person clicks the app there. */
const unsolicited = (team: Awaited<ReturnType<typeof samlTeam>>, email: string, extra: object = {}) =>
  team.idp.answer({ email, audience: team.sp.entity_id, recipient: team.sp.acs_url, ...extra })

describe('sign-ins started at the IdP (IdP-initiated)', () => {
  it('are refused unless the owner allowed them: an answer must be InResponseTo a request of the app', async () => {
    const team = await samlTeam(app, dns)
    expect((await sso(app, team.owner.cookies, team.teamId).show()).body.connection.allow_idp_initiated).toBe(false)
    const res = await postAnswer(app, team.teamId, unsolicited(team, team.email()))
    expect(res.status).toBe(303)
    expect(res.headers.location).toBe('/login?sso=failed')
    expect(String(lastRefusal())).toMatch(/InResponseTo/i)
  })

  it('sign in once allowed, each answer once; an answer naming a request still answers one of ours', async () => {
    const team = await samlTeam(app, dns, { allow_idp_initiated: true })
    expect((await sso(app, team.owner.cookies, team.teamId).show()).body.connection.allow_idp_initiated).toBe(true)
    const saved = await SecurityEvent.findOne({ where: { userId: team.owner.id, type: 'sso_connection_saved' }, order: [['id', 'DESC']] })
    expect(JSON.parse(saved!.meta!)).toMatchObject({ teamId: team.teamId, type: 'saml', allowIdpInitiated: true })

    const email = team.email()
    const answer = unsolicited(team, email)
    const res = await postAnswer(app, team.teamId, answer)
    expect(res.status).toBe(303)
    expect(res.headers.location).toBe('/')
    const me = await supertest(app).get('/api/auth/me').set(withCookies(jar(res)))
    expect(me.body.user).toMatchObject({ email })

    // The same answer posted again: a replay.
    const replayed = await postAnswer(app, team.teamId, answer)
    expect(replayed.headers.location).toBe('/login?sso=failed')
    expect(lastRefusal()).toBe('a replayed assertion')

    // Naming a request the app never sent is no IdP-initiated answer.
    const forged = await postAnswer(app, team.teamId, unsolicited(team, team.email(), { inResponseTo: '_not-a-request-of-ours' }))
    expect(forged.headers.location).toBe('/login?sso=failed')
    // And one to a request of ours still signs in, as ever.
    const { requestId } = await startSso(app, email)
    const asked = await postAnswer(app, team.teamId, unsolicited(team, email, { inResponseTo: requestId }))
    expect(asked.headers.location).toBe('/')
  })

  it('the other checks still hold: another audience is refused', async () => {
    const team = await samlTeam(app, dns, { allow_idp_initiated: true })
    const res = await postAnswer(app, team.teamId, unsolicited(team, team.email(), { audience: 'https://elsewhere.example.test/sp' }))
    expect(res.headers.location).toBe('/login?sso=failed')
  })
})
