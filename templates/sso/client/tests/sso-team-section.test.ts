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

const TOKEN = 'scim_ABCDEFGHIJKL_a-token-shown-this-once-and-never-again-000000'

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

  it('gives owners the SCIM base URL, makes a token shown once, lists tokens by prefix and revokes one', async () => {
    let tokens = [{ id: 5, prefix: 'scim_OLDOLDOLDOLD', created_at: '2026-11-01T10:00:00.000Z', last_used_at: null as string | null }]
    server.on('GET', '/api/teams/2/scim-tokens', () => ({ body: { scim_tokens: tokens } }))
    server.on('POST', '/api/teams/2/scim-tokens', () => {
      tokens = [{ id: 6, prefix: 'scim_ABCDEFGHIJKL', created_at: '2026-11-29T10:00:00.000Z', last_used_at: null }, ...tokens]
      return { status: 201, body: { id: 6, token: TOKEN } }
    })
    server.on('DELETE', '/api/teams/2/scim-tokens/5', () => {
      tokens = tokens.filter((token) => token.id !== 5)
      return { status: 204 }
    })
    const { wrapper } = await mountApp(server, '/teams/2')
    const section = () => wrapper.find('.sso-team')
    await vi.waitFor(() => expect(section().text()).toContain('scim_OLDOLDOLDOLD'))
    expect(section().text()).toContain(`${window.location.origin}/scim/v2`)
    expect(section().text()).not.toContain(TOKEN)

    const make = section().findAll('button').find((button) => button.text() === 'Make a token')!
    await make.trigger('click')
    await vi.waitFor(() => expect(section().find('[role=status]').text()).toContain(TOKEN))
    expect(sent('POST', '/api/teams/2/scim-tokens')).toHaveLength(1)
    // The revealed token holds the prefix too: wait for the list, and for it to be usable again.
    await vi.waitFor(() => expect(section().findAll('li').some((item) => item.text().includes('scim_ABCDEFGHIJKL'))).toBe(true))
    await vi.waitFor(() => expect(section().findAll('li button').every((button) => !(button.element as HTMLButtonElement).disabled)).toBe(true))

    const revoke = section().findAll('li').find((item) => item.text().includes('scim_OLDOLDOLDOLD'))!.find('button')
    await revoke.trigger('click')
    await vi.waitFor(() => expect(sent('DELETE', '/api/teams/2/scim-tokens/5')).toHaveLength(1))
    await vi.waitFor(() => expect(section().text()).not.toContain('scim_OLDOLDOLDOLD'))
  })
})
