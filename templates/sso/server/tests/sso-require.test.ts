import type { Express } from 'express'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { postAnswer, samlTeam, sso, type SsoApp, startSso, useSsoApp } from './helpers/sso.js'
import { addMember } from './helpers/teams.js'
import { makeUser, PASSWORD, useTestApps } from './helpers/test-app.js'

const t = useTestApps()
const ssoApp = useSsoApp(t)
let app: Express
let dns: SsoApp['dns']

beforeAll(() => {
  ;({ app, dns } = ssoApp)
})

const passwordSignIn = (email: string) => supertest(app).post('/api/auth/login').send({ email, password: PASSWORD })

describe('a connection that requires SSO', () => {
  it("refuses a password to its domain's addresses with a message pointing at SSO, while SSO signs them in", async () => {
    const team = await samlTeam(app, dns, { require_sso: true })
    const user = await makeUser({ email: team.email('worker') })
    const res = await passwordSignIn(user.email)
    expect(res.status).toBe(422)
    expect(res.body.errors.email).toEqual([expect.stringContaining('Continue with SSO')])
    expect(res.headers['set-cookie'] ?? []).toEqual([])

    const { requestId } = await startSso(app, user.email)
    const answer = await postAnswer(app, team.teamId, team.idp.answer({ email: user.email, inResponseTo: requestId, audience: team.sp.entity_id, recipient: team.sp.acs_url }))
    expect(answer.headers.location).toBe('/')
  })

  it("says so in German to a German browser", async () => {
    const team = await samlTeam(app, dns, { require_sso: true })
    const user = await makeUser({ email: team.email('arbeit') })
    const res = await passwordSignIn(user.email).set('Accept-Language', 'de')
    expect(res.body.errors.email).toEqual([expect.stringContaining('Weiter mit SSO')])
  })

  it("lets the team's owners in with their password, for when the IdP breaks", async () => {
    const team = await samlTeam(app, dns, { require_sso: true })
    const boss = await makeUser({ email: team.email('boss') })
    await addMember(team.teamId, boss.id, 'owner')
    expect((await passwordSignIn(boss.email)).status).toBe(200)
  })

  it('lets everyone in by password again once it is not required, and never touches other domains', async () => {
    const team = await samlTeam(app, dns, { require_sso: true })
    const user = await makeUser({ email: team.email() })
    expect((await passwordSignIn(user.email)).status).toBe(422)
    expect((await passwordSignIn((await makeUser()).email)).status).toBe(200)
    await sso(app, team.owner.cookies, team.teamId).connect({ type: 'saml', idp_metadata_xml: team.idp.metadata, require_sso: false })
    expect((await passwordSignIn(user.email)).status).toBe(200)
  })
})
