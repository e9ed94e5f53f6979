import { enableAutoUnmount, flushPromises, type VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { sleep } from './support/app'
import { startServer, type TestServer } from './support/server'
import { mountApp, unauthenticated } from './support/mount-app'

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
beforeEach(() => {
  server.reset()
  server.on('GET', '/api/auth/me', unauthenticated)
  server.on('GET', '/api/auth/oauth', { body: { data: PROVIDERS } })
})

const links = (wrapper: VueWrapper) => wrapper.findAll('.provider-buttons a')
const hrefs = (wrapper: VueWrapper) => links(wrapper).map((a) => a.attributes('href'))
const alert = (wrapper: VueWrapper) => wrapper.find('[role=alert]')

describe('social sign-in on the login page', () => {
  it('offers each configured provider, in the server’s order, as a link that starts its sign-in', async () => {
    const { wrapper } = await mountApp(server, '/login')
    await vi.waitFor(() => expect(links(wrapper)).toHaveLength(3))
    expect(wrapper.find('.provider-buttons__or').text()).toBe('or continue with')
    expect(links(wrapper).map((a) => [a.attributes('aria-label'), a.text()])).toEqual([
      ['Continue with GitHub', 'GitHub'],
      ['Continue with Google', 'Google'],
      ['Continue with Acme SSO', 'Acme SSO'],
    ])
    expect(hrefs(wrapper)).toEqual(['/api/auth/oauth/github', '/api/auth/oauth/google', '/api/auth/oauth/oidc'])
  })

  it('carries the page asked for, and "Remember me" as it is ticked', async () => {
    const { wrapper } = await mountApp(server, '/login?redirect=/settings/profile%3Ftab%3D1')
    await vi.waitFor(() => expect(links(wrapper)).toHaveLength(3))
    expect(hrefs(wrapper)[0]).toBe('/api/auth/oauth/github?redirect=%2Fsettings%2Fprofile%3Ftab%3D1')

    await wrapper.find('input[name=remember]').setValue(true)
    expect(hrefs(wrapper)[0]).toBe('/api/auth/oauth/github?redirect=%2Fsettings%2Fprofile%3Ftab%3D1&remember=1')
    await wrapper.find('input[name=remember]').setValue(false)
    expect(hrefs(wrapper)[0]).toBe('/api/auth/oauth/github?redirect=%2Fsettings%2Fprofile%3Ftab%3D1')
  })

  it('drops a redirect that would leave the app', async () => {
    const { wrapper } = await mountApp(server, '/login?redirect=//evil.example/')
    await vi.waitFor(() => expect(links(wrapper)).toHaveLength(3))
    await wrapper.find('input[name=remember]').setValue(true)
    expect(hrefs(wrapper)[1]).toBe('/api/auth/oauth/google?remember=1')
  })

  it('shows nothing of it when no provider is set up, or the list cannot be had', async () => {
    // Answered: the request was made, and its answer had time to land.
    const answered = async (count: number) => {
      await vi.waitFor(() => expect(server.received.filter((r) => r.path === '/api/auth/oauth')).toHaveLength(count))
      await sleep(30)
      await flushPromises()
    }
    server.on('GET', '/api/auth/oauth', { body: { data: [] } })
    const { wrapper } = await mountApp(server, '/login')
    await answered(1)
    expect(wrapper.find('.provider-buttons').exists()).toBe(false)
    expect(wrapper.text()).not.toContain('continue with')

    server.on('GET', '/api/auth/oauth', { status: 503, body: { message: 'Service Unavailable.' } })
    const again = await mountApp(server, '/login')
    await answered(2)
    expect(again.wrapper.find('.provider-buttons').exists()).toBe(false)
    expect(alert(again.wrapper).exists()).toBe(false)
  })

  it.each([
    ['oauth_failed', 'Signing in with that provider did not work, and you are not signed in. Please try again.'],
    [
      'account_exists',
      'An account with that e-mail address already exists. Log in the way you usually do, then link the provider under Settings → Connections to use it from then on.',
    ],
    [
      'email_unverified',
      'The provider has not confirmed your e-mail address, so it cannot sign you in or make an account here. Confirm the address with the provider, or log in another way.',
    ],
    ['provider_unavailable', 'That way of signing in is not available right now. Please log in another way, or try again later.'],
    ['something_new', 'Signing in with that provider did not work. Please try again, or log in another way.'],
  ])('explains a sign-in that came back with error=%s, once', async (code, message) => {
    const { wrapper, router } = await mountApp(server, `/login?error=${code}&redirect=/users`)
    await vi.waitFor(() => expect(alert(wrapper).text()).toBe(message))
    // Gone from the address, so a reload does not say it again; the page asked for stays.
    await vi.waitFor(() => expect(router.currentRoute.value.query).toEqual({ redirect: '/users' }))
    expect(alert(wrapper).text()).toBe(message)
    await vi.waitFor(() => expect(hrefs(wrapper)[0]).toBe('/api/auth/oauth/github?redirect=%2Fusers'))
  })

  it('shows the error even when no provider is left to offer', async () => {
    server.on('GET', '/api/auth/oauth', { body: { data: [] } })
    const { wrapper } = await mountApp(server, '/login?error=provider_unavailable')
    await flushPromises()
    expect(alert(wrapper).text()).toContain('not available right now')
    expect(wrapper.find('.provider-buttons').exists()).toBe(false)
  })
})

describe('social sign-up on the register page', () => {
  it('offers the same providers under the form, worded for signing up', async () => {
    const { wrapper } = await mountApp(server, '/register')
    await vi.waitFor(() => expect(links(wrapper)).toHaveLength(3))
    expect(wrapper.find('input[name=password_confirmation]').exists()).toBe(true)
    expect(wrapper.find('.provider-buttons__or').text()).toBe('or sign up with')
    expect(links(wrapper).map((a) => a.attributes('aria-label'))).toEqual(['Sign up with GitHub', 'Sign up with Google', 'Sign up with Acme SSO'])
    expect(hrefs(wrapper)).toEqual(['/api/auth/oauth/github', '/api/auth/oauth/google', '/api/auth/oauth/oidc'])
  })

  it('shows nothing of it when no provider is set up', async () => {
    server.on('GET', '/api/auth/oauth', { body: { data: [] } })
    const { wrapper } = await mountApp(server, '/register')
    await flushPromises()
    expect(wrapper.find('.provider-buttons').exists()).toBe(false)
  })
})
