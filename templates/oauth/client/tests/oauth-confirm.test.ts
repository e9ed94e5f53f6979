import { enableAutoUnmount, type DOMWrapper, type VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { http } from '@/lib/http'
import { startServer, type TestServer } from './support/server'
import { mountApp, user } from './support/mount-app'
import { fakeStepUp } from './support/confirm-its-you'

let server: TestServer

const PROVIDERS = [
  { provider: 'github', name: 'GitHub' },
  { provider: 'google', name: 'Google' },
  { provider: 'oidc', name: 'Acme SSO' },
]

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
afterEach(() => vi.restoreAllMocks())
beforeEach(() => {
  server.reset()
  // Linked to GitHub and the OpenID Connect provider, not to Google.
  const stepUp = fakeStepUp(server, ['password', 'provider:github', 'provider:oidc'])
  server.on('GET', '/api/auth/me', { body: { user: user({ name: 'Ann', role: 'user' }) } })
  server.on('GET', '/api/auth/oauth', { body: { data: PROVIDERS } })
  server.on('GET', '/api/account/connections', { body: { data: [] } })
  for (const { provider } of PROVIDERS) {
    server.on('POST', `/api/account/confirm/provider/${provider}`, { body: { url: `https://${provider}.example/authorize?state=c-${provider}` } })
  }
  server.on('DELETE', '/api/account/sessions', stepUp.guard(() => ({ status: 204 })))
})

const sent = (method: string, path: string) => server.received.filter((r) => r.method === method && r.path === path)
const confirmDialog = (wrapper: VueWrapper) =>
  wrapper.findAll<HTMLDialogElement>('dialog').find((d) => d.element.open && d.find('h2').text() === 'Confirm it’s you')
const providerButtons = (dialog: DOMWrapper<Element>) => dialog.findAll('button').filter((b) => b.text().startsWith('Continue with'))

describe('confirm it’s you with a linked provider', () => {
  it('offers each linked provider by name; one starts the round trip, back to the page that asked', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined)
    const { wrapper } = await mountApp(server, '/dashboard?tab=activity')
    void http.request({ url: '/api/account/sessions', method: 'delete' }).catch(() => undefined)
    await vi.waitFor(() => expect(confirmDialog(wrapper)).toBeDefined())
    const dialog = confirmDialog(wrapper)!
    await vi.waitFor(() => expect(providerButtons(dialog).map((b) => b.text())).toEqual(['Continue with GitHub', 'Continue with Acme SSO']))

    await providerButtons(dialog)[0]!.trigger('click')
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://github.example/authorize?state=c-github'))
    expect(sent('POST', '/api/account/confirm/provider/github').map((r) => r.json)).toEqual([{ redirect: '/dashboard?tab=activity' }])
    // The page is going: the buttons stay busy meanwhile.
    const busy = dialog.findAll('button').filter((b) => /GitHub|Acme SSO/.test(b.text()))
    expect(busy.map((b) => [b.text(), b.attributes('disabled')])).toEqual([
      ['Opening GitHub…', ''],
      ['Continue with Acme SSO', ''],
    ])
  })

  it('back confirmed: says so once, and the page opens without the report in its query', async () => {
    const { wrapper, router } = await mountApp(server, '/dashboard?tab=activity&confirmed=github')
    expect(router.currentRoute.value.fullPath).toBe('/dashboard?tab=activity')
    expect(wrapper.find('.flash').text()).toContain('You have confirmed it’s you')
    expect(wrapper.find('.flash').classes()).toContain('alert--success')
  })

  it('back refused: says so, and the page does not take the report for one of its own', async () => {
    const { wrapper, router } = await mountApp(server, '/settings/connections?error=confirm_failed')
    expect(router.currentRoute.value.fullPath).toBe('/settings/connections')
    expect(wrapper.find('.flash').text()).toContain('Confirming it’s you with that provider did not work.')
    expect(wrapper.find('.flash').classes()).toContain('alert--error')
    await vi.waitFor(() => expect(wrapper.findAll('.connection')).toHaveLength(3))
    expect(wrapper.find('.settings__content [role=alert]').exists()).toBe(false)
  })
})
