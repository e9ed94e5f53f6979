import { enableAutoUnmount, flushPromises, type VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Connection } from '@/features/oauth/lib/oauth'
import { startServer, type TestServer } from './support/server'
import { mountApp, user } from './support/mount-app'

let server: TestServer
/** What the fake API holds for the signed-in user. */
let linked: Connection[]

const PROVIDERS = [
  { provider: 'github', name: 'GitHub' },
  { provider: 'google', name: 'Google' },
  { provider: 'oidc', name: 'Acme SSO' },
]
const LAST_WAY = { status: 422, body: { message: 'This is the last way to sign in to your account: set a password or link another provider first.' } }

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
afterEach(() => vi.restoreAllMocks())
beforeEach(() => {
  server.reset()
  linked = [{ provider: 'google', email: 'ann@gmail.example', createdAt: '2024-03-01T10:00:00.000Z' }]
  server.on('GET', '/api/auth/me', { body: { user: user({ name: 'Ann', role: 'user' }) } })
  server.on('GET', '/api/auth/oauth', { body: { data: PROVIDERS } })
  server.on('GET', '/api/account/connections', () => ({ body: { data: linked } }))
  for (const { provider } of PROVIDERS) {
    server.on('POST', `/api/account/connections/${provider}`, { body: { url: `https://${provider}.example/authorize?state=s-${provider}` } })
    server.on('DELETE', `/api/account/connections/${provider}`, () => {
      linked = linked.filter((c) => c.provider !== provider)
      return { status: 204 }
    })
  }
})

const requests = (method: string, path: string) => server.received.filter((r) => r.method === method && r.path === path)
const button = (wrapper: VueWrapper, name: string) => wrapper.findAll('button').find((b) => (b.attributes('aria-label') ?? b.text()) === name)
const row = (wrapper: VueWrapper, name: string) => wrapper.findAll('.connection').find((li) => li.find('strong').text() === name)!
const names = (wrapper: VueWrapper) => wrapper.findAll('.connection strong').map((el) => el.text())
const status = (wrapper: VueWrapper) => wrapper.find('.settings__content [role=status]')
const alert = (wrapper: VueWrapper) => wrapper.find('.settings__content [role=alert]')
const dialogOpen = (wrapper: VueWrapper) => (wrapper.find('dialog').element as HTMLDialogElement).open
/** Navigations of the whole page, which happy-dom would otherwise try to make. */
const assign = () => vi.spyOn(window.location, 'assign').mockImplementation(() => undefined)

async function mountConnections(path = '/settings/connections') {
  const app = await mountApp(server, path)
  await vi.waitFor(() => expect(names(app.wrapper)).toHaveLength(3))
  return app
}

describe('connections settings', () => {
  it('is a section of the settings with a row per configured provider, linked or not', async () => {
    const { wrapper } = await mountConnections()
    expect(document.title.startsWith('Connections')).toBe(true)
    expect(wrapper.find('nav[aria-label=Settings] [aria-current=page]').text()).toBe('Connections')
    expect(names(wrapper)).toEqual(['GitHub', 'Google', 'Acme SSO'])

    const google = row(wrapper, 'Google')
    expect(google.find('.badge').text()).toBe('Linked')
    expect(google.text()).toContain('ann@gmail.example')
    expect(google.find('time[datetime="2024-03-01T10:00:00.000Z"]').exists()).toBe(true)
    expect(button(wrapper, 'Unlink Google')).toBeDefined()
    expect(button(wrapper, 'Link Google')).toBeUndefined()

    expect(row(wrapper, 'GitHub').text()).toContain('Not linked')
    expect(row(wrapper, 'GitHub').find('.badge').exists()).toBe(false)
    expect(button(wrapper, 'Link GitHub')).toBeDefined()
    expect(button(wrapper, 'Link Acme SSO')).toBeDefined()
    // Someone who signed up with a provider learns how to get a password.
    expect(wrapper.text()).toContain('has no password')
    expect(wrapper.text()).toContain('Forgot your password?')
  })

  it('says so when the site has no provider set up', async () => {
    server.on('GET', '/api/auth/oauth', { body: { data: [] } })
    const { wrapper } = await mountApp(server, '/settings/connections')
    await vi.waitFor(() => expect(wrapper.text()).toContain('No sign-in providers are set up on this site.'))
    expect(wrapper.find('.connection').exists()).toBe(false)
  })

  it('shows why the list cannot be loaded', async () => {
    server.on('GET', '/api/account/connections', { status: 503, body: { message: 'Service Unavailable.' } })
    const { wrapper } = await mountApp(server, '/settings/connections')
    await vi.waitFor(() => expect(alert(wrapper).text()).toBe('Service Unavailable.'))
    expect(wrapper.find('.connection').exists()).toBe(false)
  })

  it('links a provider: the API starts the flow, the whole page goes to the address it names', async () => {
    const navigate = assign()
    const { wrapper } = await mountConnections()
    await button(wrapper, 'Link GitHub')!.trigger('click')
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('https://github.example/authorize?state=s-github'))
    expect(navigate).toHaveBeenCalledTimes(1)
    expect(requests('POST', '/api/account/connections/github')).toHaveLength(1)
    expect(requests('POST', '/api/account/connections/github')[0]!.body).toBe('')
  })

  it('holds the other buttons while a link starts', async () => {
    assign()
    server.on('POST', '/api/account/connections/oidc', { delay: 200, body: { url: 'https://oidc.example/authorize' } })
    const { wrapper } = await mountConnections()
    await button(wrapper, 'Link Acme SSO')!.trigger('click')
    await flushPromises()
    const busy = row(wrapper, 'Acme SSO').find('button')
    expect(busy.text()).toBe('Opening Acme SSO…')
    expect(busy.attributes('disabled')).toBeDefined()
    expect(button(wrapper, 'Link GitHub')!.attributes('disabled')).toBeDefined()
  })

  it('shows the API’s refusal to start a link, and stays', async () => {
    const navigate = assign()
    server.on('POST', '/api/account/connections/github', { status: 429, body: { message: 'Too many attempts. Try again in 60 seconds.' } })
    const { wrapper } = await mountConnections()
    await button(wrapper, 'Link GitHub')!.trigger('click')
    await vi.waitFor(() => expect(alert(wrapper).text()).toBe('Too many attempts. Try again in 60 seconds.'))
    expect(navigate).not.toHaveBeenCalled()
    expect(button(wrapper, 'Link GitHub')!.attributes('disabled')).toBeUndefined()
  })

  it('back from the provider, linked: says so by the provider’s name, once', async () => {
    linked = [...linked, { provider: 'oidc', email: 'ann@acme.example', createdAt: new Date().toISOString() }]
    const { wrapper, router } = await mountConnections('/settings/connections?linked=oidc')
    await vi.waitFor(() => expect(status(wrapper).text()).toBe('Acme SSO is linked: you can log in with it now.'))
    expect(button(wrapper, 'Unlink Acme SSO')).toBeDefined()
    await vi.waitFor(() => expect(router.currentRoute.value.fullPath).toBe('/settings/connections'))
  })

  it.each([
    ['oauth_failed', 'Linking did not work, and nothing was changed. Please try again.'],
    [
      'already_linked',
      'That provider account is already linked to another account here, so it cannot be linked to yours. Unlink it there first, or use a different provider account.',
    ],
    ['something_new', 'Linking did not work. Please try again.'],
  ])('back from the provider with error=%s: explains it, once', async (code, message) => {
    const { wrapper, router } = await mountConnections(`/settings/connections?error=${code}`)
    expect(alert(wrapper).text()).toBe(message)
    await vi.waitFor(() => expect(router.currentRoute.value.fullPath).toBe('/settings/connections'))
    expect(alert(wrapper).text()).toBe(message)
  })

  it('unlinks after asking, then shows the provider as not linked', async () => {
    const { wrapper } = await mountConnections()
    await button(wrapper, 'Unlink Google')!.trigger('click')
    await flushPromises()
    expect(dialogOpen(wrapper)).toBe(true)
    const dialog = wrapper.find('dialog')
    expect(dialog.text()).toContain('Unlink Google?')
    expect(dialog.text()).toContain('You will no longer be able to log in with Google.')
    await dialog.findAll('button').find((b) => b.text() === 'Unlink')!.trigger('click')

    await vi.waitFor(() => expect(button(wrapper, 'Link Google')).toBeDefined())
    expect(requests('DELETE', '/api/account/connections/google')).toHaveLength(1)
    expect(dialogOpen(wrapper)).toBe(false)
    expect(status(wrapper).text()).toBe('Google is unlinked: it no longer signs you in here.')
    expect(row(wrapper, 'Google').text()).toContain('Not linked')
    expect(document.activeElement?.id).toBe('connections-heading')
  })

  it('Cancel unlinks nothing', async () => {
    const { wrapper } = await mountConnections()
    await button(wrapper, 'Unlink Google')!.trigger('click')
    await flushPromises()
    await wrapper.find('dialog').findAll('button').find((b) => b.text() === 'Cancel')!.trigger('click')
    await flushPromises()
    expect(dialogOpen(wrapper)).toBe(false)
    expect(requests('DELETE', '/api/account/connections/google')).toHaveLength(0)
    expect(button(wrapper, 'Unlink Google')).toBeDefined()
  })

  it('the last way to sign in stays linked: shows the API’s reason', async () => {
    server.on('DELETE', '/api/account/connections/google', LAST_WAY)
    const { wrapper } = await mountConnections()
    await button(wrapper, 'Unlink Google')!.trigger('click')
    await flushPromises()
    await wrapper.find('dialog').findAll('button').find((b) => b.text() === 'Unlink')!.trigger('click')
    await vi.waitFor(() => expect(alert(wrapper).text()).toBe(LAST_WAY.body.message))
    expect(dialogOpen(wrapper)).toBe(false)
    expect(button(wrapper, 'Unlink Google')).toBeDefined()
    expect(row(wrapper, 'Google').find('.badge').text()).toBe('Linked')
  })
})
