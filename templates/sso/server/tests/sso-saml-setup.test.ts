import type { Express } from 'express'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { SecurityEvent } from '../src/kernel/models/index.js'
import { unconfirm } from './helpers/confirmation.js'
import { samlIdp } from './helpers/saml-idp.js'
import { samlTeam, sso, type SsoApp, useSsoApp } from './helpers/sso.js'
import { staffedTeam } from './helpers/teams.js'
import { useTestApps } from './helpers/test-app.js'

const t = useTestApps()
const ssoApp = useSsoApp(t)
let app: Express
let dns: SsoApp['dns']

beforeAll(() => {
  ;({ app, dns } = ssoApp)
})

describe("setting a team's SAML connection up", () => {
  it("reads the IdP's metadata and shows the connection without a secret; an owner replaces and removes it", async () => {
    const { owner, teamId, idp } = await samlTeam(app, dns, { default_role: 'admin', require_sso: true })
    const shown = await sso(app, owner.cookies, teamId).show()
    expect(shown.body.connection).toEqual({ type: 'saml', default_role: 'admin', require_sso: true, idp_entity_id: idp.entityId, sso_url: idp.ssoUrl, allow_idp_initiated: false })

    const other = samlIdp()
    const replaced = await sso(app, owner.cookies, teamId).connect({ type: 'saml', idp_metadata_xml: other.metadata })
    expect(replaced.status).toBe(200)
    expect(replaced.body.connection).toEqual({ type: 'saml', default_role: 'member', require_sso: false, idp_entity_id: other.entityId, sso_url: other.ssoUrl, allow_idp_initiated: false })
    expect(await SecurityEvent.count({ where: { userId: owner.id, type: 'sso_connection_saved' } })).toBe(2)

    expect((await sso(app, owner.cookies, teamId).disconnect()).status).toBe(204)
    expect((await sso(app, owner.cookies, teamId).show()).body.connection).toBeNull()
    expect((await sso(app, owner.cookies, teamId).disconnect()).status).toBe(204)
    expect(await SecurityEvent.count({ where: { userId: owner.id, type: 'sso_connection_deleted' } })).toBe(1)
  })

  it('is for owners only, behind step-up', async () => {
    const { owner, admin, member, outsider, teamId } = await staffedTeam(app)
    const body = { type: 'saml', idp_metadata_xml: samlIdp().metadata }
    expect((await sso(app, admin.cookies, teamId).connect(body)).status).toBe(403)
    expect((await sso(app, member.cookies, teamId).connect(body)).status).toBe(403)
    expect((await sso(app, outsider.cookies, teamId).connect(body)).status).toBe(404)
    expect((await sso(app, admin.cookies, teamId).disconnect()).status).toBe(403)
    await unconfirm(owner.id)
    const unconfirmed = await sso(app, owner.cookies, teamId).connect(body)
    expect(unconfirmed.status).toBe(403)
    expect(unconfirmed.body.errors).toEqual({ confirm: [expect.any(String)] })
    expect((await sso(app, owner.cookies, teamId).disconnect()).status).toBe(403)
  })

  it.each([
    ['no metadata', {}],
    ['not XML', { idp_metadata_xml: 'hello' }],
    ['an SP, not an IdP', { idp_metadata_xml: '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"><md:SPSSODescriptor/></md:EntityDescriptor>' }],
    ['no signing certificate', { idp_metadata_xml: samlIdp().metadata.replace(/<md:KeyDescriptor[\s\S]*<\/md:KeyDescriptor>/, '') }],
    ['a broken certificate', { idp_metadata_xml: samlIdp().metadata.replace(/<ds:X509Certificate>[^<]{20}/, '<ds:X509Certificate>AAAAAAAAAAAAAAAAAAAA') }],
    ['a sign-in URL over http', { idp_metadata_xml: samlIdp().metadata.replace(/Location="https:\/\/([^"]*)\/sso"/, 'Location="http://$1/sso"') }],
    ['a DOCTYPE', { idp_metadata_xml: `<!DOCTYPE x [<!ENTITY e "e">]>${samlIdp().metadata.replace(/^<\?xml[^>]*>/, '')}` }],
  ])('refuses %s with 422 errors.idp_metadata_xml', async (_case, body) => {
    const { owner, teamId } = await staffedTeam(app)
    const res = await sso(app, owner.cookies, teamId).connect({ type: 'saml', ...body })
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['idp_metadata_xml'])
  })

  it('refuses an owner as the default role, and a type other than saml', async () => {
    const { owner, teamId } = await staffedTeam(app)
    const metadata = samlIdp().metadata
    expect(Object.keys((await sso(app, owner.cookies, teamId).connect({ type: 'saml', idp_metadata_xml: metadata, default_role: 'owner' })).body.errors)).toEqual(['default_role'])
    expect(Object.keys((await sso(app, owner.cookies, teamId).connect({ type: 'ldap', idp_metadata_xml: metadata })).body.errors)).toEqual(['type'])
  })
})

describe("the team's SP metadata", () => {
  it('names the entity and the assertion consumer the team page shows, asks for signed assertions, and needs no sign-in', async () => {
    const { teamId, sp } = await samlTeam(app, dns)
    const res = await supertest(app).get(`/api/auth/sso/saml/${teamId}/metadata`)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/)
    expect(res.text).toContain(`entityID="${sp.entity_id}"`)
    expect(res.text).toContain(`Location="${sp.acs_url}"`)
    expect(res.text).toContain('WantAssertionsSigned="true"')
    expect((await supertest(app).get('/api/auth/sso/saml/abc/metadata')).status).toBe(404)
  })
})
