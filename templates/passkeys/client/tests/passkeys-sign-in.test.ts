import { enableAutoUnmount, flushPromises, type VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useAuthStore } from '@/stores/auth'
import { authenticationResponse, domError, webauthn } from './support/fake-webauthn'
import { startServer, type TestServer } from './support/server'
import { mountApp, unauthenticated, user } from './support/mount-app'

vi.mock('@simplewebauthn/browser', () => import('./support/fake-webauthn'))

let server: TestServer
let issued = 0

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
afterEach(() => vi.useRealTimers())
beforeEach(() => {
  server.reset()
  webauthn.reset()
  issued = 0
  server.on('GET', '/api/auth/me', unauthenticated)
  // A new challenge each time, as the API makes them: each one is good once.
  server.on('POST', '/api/auth/passkey/options', () => ({
    body: { challenge: `challenge-${++issued}`, rpId: 'localhost', allowCredentials: [], userVerification: 'required', timeout: 300000 },
  }))
  server.on('POST', '/api/auth/passkey', (req) =>
    req.json?.response?.id === 'cred-1'
      ? { body: { user: user({ name: 'Pat', role: 'user', passkeys: 1 }), access_token: 'jwt' } }
      : { status: 401, body: { message: 'This passkey is not registered here.' } },
  )
})

const posts = (path: string) => server.received.filter((r) => r.method === 'POST' && r.path === path)
/**
 * The options the API issued last: a ceremony that starts now must use them, each challenge being
 * good once. Not a fixed number: the page's first navigation can ask for options once more than
 * the test's own steps do, when the memory router lands on /login twice under load.
 */
const newest = () => `challenge-${issued}`
const passkeyButton = (wrapper: VueWrapper) => wrapper.findAll('button').find((b) => b.text() === 'Sign in with a passkey')
const ceremonies = () => webauthn.ceremonies

describe('passkey sign-in on the login page', () => {
  it('offers passkeys in the e-mail field’s autofill and signs in with the one picked', async () => {
    const { wrapper, router, pinia } = await mountApp(server, '/login?redirect=/settings/profile')
    expect(wrapper.find('input[name=email]').attributes('autocomplete')).toBe('username webauthn')
    await vi.waitFor(() => expect(ceremonies()).toHaveLength(1))
    const autofill = webauthn.last()
    expect(autofill).toMatchObject({ kind: 'get', autofill: true, optionsJSON: { challenge: newest() } })
    // Ticked after the page opened: the sign-in takes the box as it is when the passkey is picked.
    await wrapper.find('input[name=remember]').setValue(true)

    autofill.resolve(authenticationResponse())
    await vi.waitFor(() => expect(router.currentRoute.value.fullPath).toBe('/settings/profile'))
    expect(posts('/api/auth/passkey').map((r) => r.json)).toEqual([{ response: authenticationResponse(), remember: true }])
    expect(useAuthStore(pinia).user?.name).toBe('Pat')
    expect(posts('/api/auth/login')).toHaveLength(0)
  })

  it('the button starts a ceremony of its own with fresh options, replacing the waiting autofill quietly', async () => {
    const { wrapper, router } = await mountApp(server, '/login')
    await vi.waitFor(() => expect(ceremonies()).toHaveLength(1))
    await passkeyButton(wrapper)!.trigger('click')
    await vi.waitFor(() => expect(ceremonies()).toHaveLength(2))
    const [autofill, modal] = ceremonies()
    expect(autofill!.settled).toBe(true)
    expect(modal).toMatchObject({ kind: 'get', autofill: false, optionsJSON: { challenge: newest() } })
    expect(modal!.optionsJSON.challenge).not.toBe(autofill!.optionsJSON.challenge)
    await flushPromises()
    expect(wrapper.find('[role=alert]').exists()).toBe(false)
    expect(wrapper.find('[role=status]').exists()).toBe(false)
    expect(wrapper.find('.passkey-sign-in button').text()).toBe('Waiting for your passkey…')
    expect(wrapper.find('.passkey-sign-in button').attributes('disabled')).toBeDefined()

    modal!.resolve(authenticationResponse())
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/dashboard'))
    expect(posts('/api/auth/passkey').map((r) => r.json)).toEqual([{ response: authenticationResponse(), remember: false }])
  })

  it('an autofill whose options arrive after a click leaves the button’s ceremony alone', async () => {
    // The first options (the autofill's) are slow to come.
    server.on('POST', '/api/auth/passkey/options', () => ({
      delay: issued === 0 ? 300 : 0,
      body: { challenge: `challenge-${++issued}`, rpId: 'localhost', allowCredentials: [], userVerification: 'required' },
    }))
    const { wrapper, router } = await mountApp(server, '/login')
    await passkeyButton(wrapper)!.trigger('click')
    await vi.waitFor(() => expect(ceremonies()).toHaveLength(1))
    const modal = webauthn.last()
    expect(modal.autofill).toBe(false)
    await vi.waitFor(() => expect(posts('/api/auth/passkey/options').length).toBeGreaterThanOrEqual(2))
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(ceremonies()).toEqual([modal])
    expect(modal.settled).toBe(false)
    modal.resolve(authenticationResponse())
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/dashboard'))
  })

  it('a closed prompt says so calmly, and the autofill comes back with a new challenge', async () => {
    const { wrapper, router } = await mountApp(server, '/login')
    await vi.waitFor(() => expect(ceremonies()).toHaveLength(1))
    await passkeyButton(wrapper)!.trigger('click')
    await vi.waitFor(() => expect(ceremonies()).toHaveLength(2))
    webauthn.last().reject(domError('NotAllowedError', 'The operation either timed out or was not allowed.'))

    await vi.waitFor(() => expect(wrapper.find('[role=status]').text()).toBe('No passkey was used. Try again, or log in with your password.'))
    expect(wrapper.find('[role=alert]').exists()).toBe(false)
    expect(posts('/api/auth/passkey')).toHaveLength(0)
    await vi.waitFor(() => expect(ceremonies()).toHaveLength(3))
    expect(webauthn.last()).toMatchObject({ autofill: true, optionsJSON: { challenge: newest() } })
    expect(webauthn.last().optionsJSON.challenge).not.toBe(ceremonies()[1]!.optionsJSON.challenge)
    expect(passkeyButton(wrapper)!.attributes('disabled')).toBeUndefined()
    expect(router.currentRoute.value.path).toBe('/login')
  })

  it('shows the API’s refusal of a passkey in the page’s alert, signed out', async () => {
    const { wrapper, router, pinia } = await mountApp(server, '/login')
    await vi.waitFor(() => expect(ceremonies()).toHaveLength(1))
    await passkeyButton(wrapper)!.trigger('click')
    await vi.waitFor(() => expect(ceremonies()).toHaveLength(2))
    webauthn.last().resolve(authenticationResponse('cred-unknown'))

    await vi.waitFor(() => expect(wrapper.find('[role=alert]').text()).toBe('This passkey is not registered here.'))
    expect(wrapper.find('[role=alert]').classes()).toContain('alert--error')
    expect(router.currentRoute.value.path).toBe('/login')
    expect(useAuthStore(pinia).user).toBeNull()
  })

  it('a refused autofill pick shows the message, and the button tries again', async () => {
    const { wrapper, router } = await mountApp(server, '/login')
    await vi.waitFor(() => expect(ceremonies()).toHaveLength(1))
    webauthn.last().resolve(authenticationResponse('cred-unknown'))
    await vi.waitFor(() => expect(wrapper.find('[role=alert]').text()).toBe('This passkey is not registered here.'))
    await flushPromises()
    expect(ceremonies()).toHaveLength(1)

    await passkeyButton(wrapper)!.trigger('click')
    await vi.waitFor(() => expect(ceremonies()).toHaveLength(2))
    expect(wrapper.find('[role=alert]').exists()).toBe(false)
    expect(webauthn.last()).toMatchObject({ autofill: false, optionsJSON: { challenge: newest() } })
    expect(webauthn.last().optionsJSON.challenge).not.toBe(ceremonies()[0]!.optionsJSON.challenge)
    webauthn.last().resolve(authenticationResponse())
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/dashboard'))
  })

  it('without WebAuthn the page is the password form alone', async () => {
    webauthn.supported = false
    const { wrapper } = await mountApp(server, '/login')
    await flushPromises()
    expect(passkeyButton(wrapper)).toBeUndefined()
    expect(wrapper.text()).not.toContain('passkey')
    expect(posts('/api/auth/passkey/options')).toHaveLength(0)
    expect(ceremonies()).toHaveLength(0)
  })

  it('without autofill support it offers the button only', async () => {
    webauthn.autofill = false
    const { wrapper, router } = await mountApp(server, '/login')
    await flushPromises()
    expect(ceremonies()).toHaveLength(0)
    expect(posts('/api/auth/passkey/options')).toHaveLength(0)
    await passkeyButton(wrapper)!.trigger('click')
    await vi.waitFor(() => expect(ceremonies()).toHaveLength(1))
    webauthn.last().resolve(authenticationResponse())
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/dashboard'))
  })

  it('leaving the login page ends the waiting autofill', async () => {
    const { wrapper, router } = await mountApp(server, '/login')
    await vi.waitFor(() => expect(ceremonies()).toHaveLength(1))
    await router.push('/register')
    await flushPromises()
    expect(wrapper.find('input[name=password_confirmation]').exists()).toBe(true)
    expect(webauthn.last().settled).toBe(true)
    expect(ceremonies()).toHaveLength(1)
    expect(posts('/api/auth/passkey/options')).toHaveLength(1)
  })

  it('renews a waiting autofill before its challenge runs out', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    await mountApp(server, '/login')
    await vi.waitFor(() => expect(ceremonies()).toHaveLength(1))
    vi.advanceTimersByTime(3 * 60 * 1000)
    await flushPromises()
    expect(ceremonies()).toHaveLength(1)
    vi.advanceTimersByTime(60 * 1000)
    await vi.waitFor(() => expect(ceremonies()).toHaveLength(2))
    expect(ceremonies()[0]!.settled).toBe(true)
    expect(webauthn.last()).toMatchObject({ autofill: true, optionsJSON: { challenge: newest() } })
    expect(webauthn.last().optionsJSON.challenge).not.toBe(ceremonies()[0]!.optionsJSON.challenge)
  })
})
