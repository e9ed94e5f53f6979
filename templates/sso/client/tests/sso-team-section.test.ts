import { enableAutoUnmount } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SsoConnection, TeamSso } from '@/features/sso/lib/sso'
import { fakeTeamsApi } from './support/fake-teams'
import { startServer, type TestServer } from './support/server'
import { mountApp, user } from './support/mount-app'

let server: TestServer
/** What the fake API holds for team 2's SSO. */
let sso: TeamSso

const REDIRECT_URI = 'https://app.example/api/auth/sso/oidc/2/callback'
const SECRET = 'a-client-secret-nobody-sees-again'

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  server.on('GET', '/api/auth/me', { body: { user: user({ id: 1, name: 'Ann Owner', role: 'user' }) } })
  fakeTeamsApi(server)
  const root = 'https://app.example/api/auth/sso/saml/2'
  sso = { connection: null, sp: { entity_id: `${root}/metadata`, acs_url: `${root}/acs`, metadata_url: `${root}/metadata`, redirect_uri: REDIRECT_URI }, domains: [] }
  server.on('GET', '/api/teams/2/sso', () => ({ body: sso }))
  server.on('PUT', '/api/teams/2/sso', (req) => {
    const { type, issuer, client_id, default_role, require_sso } = req.json
    sso = { ...sso, connection: { type, issuer, client_id, default_role, require_sso } as SsoConnection }
    return { body: { connection: sso.connection } }
  })
})

const sent = (method: string, path: string) => server.received.filter((r) => r.method === method && r.path === path)

describe("the team page's single sign-on section", () => {
  it('sets up an OpenID Connect provider: shows the redirect URI to register, sends issuer, client id and secret alone, and forgets the secret', async () => {
    const { wrapper } = await mountApp(server, '/teams/2')
    await vi.waitFor(() => expect(wrapper.find('.sso-team input[name=type][value=oidc]').exists()).toBe(true))
    const section = () => wrapper.find('.sso-team')
    expect(section().text()).toContain(REDIRECT_URI)
    expect(section().find('input[name=issuer]').exists()).toBe(false)

    await section().find('input[name=type][value=oidc]').setValue(true)
    expect(section().find('textarea[name=idp_metadata_xml]').exists()).toBe(false)
    await section().find('input[name=issuer]').setValue('https://acme.okta.example')
    await section().find('input[name=client_id]').setValue('0oa-acme')
    await section().find('input[name=client_secret]').setValue(SECRET)
    expect(section().find('input[name=client_secret]').attributes('type')).toBe('password')
    await section().find('input[name=issuer]').element.closest('form')!.dispatchEvent(new Event('submit'))

    await vi.waitFor(() => expect(sent('PUT', '/api/teams/2/sso')).toHaveLength(1))
    expect(sent('PUT', '/api/teams/2/sso')[0]!.json).toEqual({ type: 'oidc', issuer: 'https://acme.okta.example', client_id: '0oa-acme', client_secret: SECRET, default_role: 'member', require_sso: false })
    await vi.waitFor(() => expect(section().find('dl:not(:first-of-type)').text()).toContain('OpenID Connect'))
    expect(section().text()).toContain('0oa-acme')
    expect((section().find('input[name=client_secret]').element as HTMLInputElement).value).toBe('')
  })

  it('still sends a SAML connection as before, without the OpenID fields; sign-ins started at the IdP only when ticked', async () => {
    const { wrapper } = await mountApp(server, '/teams/2')
    await vi.waitFor(() => expect(wrapper.find('.sso-team textarea[name=idp_metadata_xml]').exists()).toBe(true))
    await wrapper.find('.sso-team textarea[name=idp_metadata_xml]').setValue('<EntityDescriptor/>')
    await wrapper.find('.sso-team textarea[name=idp_metadata_xml]').element.closest('form')!.dispatchEvent(new Event('submit'))
    await vi.waitFor(() => expect(sent('PUT', '/api/teams/2/sso')).toHaveLength(1))
    expect(sent('PUT', '/api/teams/2/sso')[0]!.json).toEqual({ type: 'saml', idp_metadata_xml: '<EntityDescriptor/>', allow_idp_initiated: false, default_role: 'member', require_sso: false })

    await wrapper.find('.sso-team input[name=allow_idp_initiated]').setValue(true)
    await wrapper.find('.sso-team textarea[name=idp_metadata_xml]').setValue('<EntityDescriptor/>')
    await wrapper.find('.sso-team textarea[name=idp_metadata_xml]').element.closest('form')!.dispatchEvent(new Event('submit'))
    await vi.waitFor(() => expect(sent('PUT', '/api/teams/2/sso')).toHaveLength(2))
    expect(sent('PUT', '/api/teams/2/sso')[1]!.json).toMatchObject({ type: 'saml', allow_idp_initiated: true })
  })
})
