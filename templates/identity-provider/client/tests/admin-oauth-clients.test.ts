import { enableAutoUnmount } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { mountApp, user } from './support/mount-app'
import { startServer, type TestServer } from './support/server'

interface Client {
  id: number
  client_id: string
  name: string
  type: 'public' | 'confidential'
  redirect_uris: string[]
  grant_types: string[]
  scopes: string[]
  dynamic: boolean
  createdAt: string
  updatedAt: string
}

let server: TestServer
let clients: Client[]
const client = (overrides: Partial<Client>): Client => ({
  id: 1, client_id: 'a1b2c3d4e5f6g7h8i9j0k1l2', name: 'Example CLI', type: 'public', redirect_uris: [], grant_types: ['urn:ietf:params:oauth:grant-type:device_code'], scopes: ['openid', 'read'],
  dynamic: false, createdAt: '2026-01-01T10:00:00.000Z', updatedAt: '2026-01-01T10:00:00.000Z', ...overrides,
})

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  clients = [client({}), client({ id: 2, client_id: 'zz', name: 'My agent', dynamic: true, grant_types: ['authorization_code'], redirect_uris: ['http://127.0.0.1:8765/callback'] })]
  server.on('GET', '/api/auth/me', { body: { user: user({ name: 'Ada', role: 'admin' }) } })
  server.on('GET', '/api/admin/oauth-clients', () => ({ body: { data: clients } }))
  server.on('POST', '/api/admin/oauth-clients', (req) => {
    if (req.json.redirect_uris.some((uri: string) => uri.includes('#'))) {
      return { status: 422, body: { message: 'Invalid.', errors: { redirect_uris: ['A redirect URI is … without a fragment.'] } } }
    }
    const made = client({ id: 3, client_id: 'new', name: req.json.name, type: req.json.type, redirect_uris: req.json.redirect_uris, grant_types: req.json.grant_types, scopes: req.json.scopes })
    clients = [...clients, made]
    return { status: 201, body: { client: made, ...(req.json.type === 'confidential' ? { client_secret: 'secret-shown-once' } : {}) } }
  })
})

const items = (wrapper: any) => wrapper.findAll('.client-list > li')
const button = (wrapper: any, text: string) => wrapper.findAll('button').find((b: any) => b.text() === text)
const sent = (method: string, path: string) => server.received.filter((r) => r.method === method && r.path === path)

async function mountPage() {
  const app = await mountApp(server, '/admin/oauth-clients')
  await vi.waitFor(() => expect(items(app.wrapper)).toHaveLength(clients.length))
  return app
}

describe('the OAuth clients admin page', () => {
  it('is linked for admins and lists every client, those that registered themselves marked', async () => {
    const { wrapper } = await mountPage()
    expect(document.title.startsWith('OAuth clients')).toBe(true)
    expect(wrapper.find('a[href="/admin/oauth-clients"]').exists()).toBe(true)
    const [cli, agent] = items(wrapper)
    expect(cli.text()).toContain('Example CLI')
    expect(cli.text()).toContain('Device code')
    expect(cli.text()).not.toContain('Registered itself')
    expect(agent.text()).toContain('Registered itself')
    expect(agent.text()).toContain('http://127.0.0.1:8765/callback')
  })

  it('registers a confidential client: the redirect URIs a line each, the secret shown once', async () => {
    const { wrapper } = await mountPage()
    await wrapper.find('input[name="name"]').setValue('Partner site')
    await wrapper.find('input[value="confidential"]').setValue(true)
    await wrapper.find('textarea').setValue('https://partner.example/callback\n\n  https://partner.example/other  \n')
    await wrapper.find('form').trigger('submit')
    await vi.waitFor(() => expect(items(wrapper)).toHaveLength(3))
    expect(sent('POST', '/api/admin/oauth-clients').map((r) => r.json)).toEqual([
      { name: 'Partner site', type: 'confidential', redirect_uris: ['https://partner.example/callback', 'https://partner.example/other'], grant_types: ['authorization_code', 'refresh_token'], scopes: ['openid'] },
    ])
    expect(wrapper.find('.client-secret').text()).toBe('secret-shown-once')
    await button(wrapper, 'Done').trigger('click')
    expect(wrapper.find('.client-secret').exists()).toBe(false)
  })

  it("shows the API's refusal of a redirect URI under the field", async () => {
    const { wrapper } = await mountPage()
    await wrapper.find('input[name="name"]').setValue('Bad')
    await wrapper.find('textarea').setValue('https://partner.example/#frag')
    await wrapper.find('form').trigger('submit')
    await vi.waitFor(() => expect(wrapper.find('#client-redirects-error').text()).toBe('A redirect URI is … without a fragment.'))
    expect(wrapper.find('textarea').attributes('aria-invalid')).toBe('true')
  })

  it('gives a confidential client a new secret, and deletes a client after asking', async () => {
    clients = [client({ type: 'confidential', name: 'Server' })]
    server.on('POST', '/api/admin/oauth-clients/1/secret', { body: { client: clients[0], client_secret: 'the-new-secret' } })
    server.on('DELETE', '/api/admin/oauth-clients/1', () => {
      clients = []
      return { status: 204 }
    })
    const { wrapper } = await mountPage()
    await button(wrapper, 'New secret').trigger('click')
    await vi.waitFor(() => expect(wrapper.find('.client-secret').text()).toBe('the-new-secret'))
    await button(wrapper, 'Delete').trigger('click')
    ;[...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Delete client')!.click()
    await vi.waitFor(() => expect(wrapper.text()).toContain('No clients yet.'))
    expect(sent('DELETE', '/api/admin/oauth-clients/1')).toHaveLength(1)
  })
})
