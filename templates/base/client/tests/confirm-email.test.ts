import { enableAutoUnmount } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useAuthStore } from '@/stores/auth'
import { startServer, type TestServer } from './support/server'
import { mountApp, unauthenticated, user } from './support/mount-app'

let server: TestServer

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  server.on('POST', '/api/account/email/confirm', {
    body: { user: user({ id: 7, name: 'Ann', email: 'ann@new.example', role: 'user' }) },
  })
})

const confirms = () => server.received.filter((r) => r.method === 'POST' && r.path === '/api/account/email/confirm')

describe('confirm e-mail page', () => {
  it('confirms the token from the link and updates the signed-in user', async () => {
    server.on('GET', '/api/auth/me', { body: { user: user({ id: 7, name: 'Ann', email: 'ann@old.example', role: 'user' }) } })
    const { wrapper, router, pinia } = await mountApp(server, '/confirm-email?token=tok-123')
    await vi.waitFor(() => expect(wrapper.text()).toContain('Your e-mail address is now ann@new.example.'))
    expect(confirms()[0]!.json).toEqual({ token: 'tok-123' })
    expect(router.currentRoute.value.path).toBe('/confirm-email')
    expect(document.title.startsWith('Confirm e-mail')).toBe(true)
    expect(useAuthStore(pinia).user?.email).toBe('ann@new.example')
    expect(wrapper.find('main a.btn--primary').attributes('href')).toBe('/settings/profile')
  })

  it('works signed out, offering to log in with the new address', async () => {
    server.on('GET', '/api/auth/me', unauthenticated)
    const { wrapper, router, pinia } = await mountApp(server, '/confirm-email?token=tok-123')
    await vi.waitFor(() => expect(wrapper.text()).toContain('Your e-mail address is now ann@new.example.'))
    expect(router.currentRoute.value.path).toBe('/confirm-email')
    expect(useAuthStore(pinia).user).toBeNull()
    const login = wrapper.find('main a.btn--primary')
    expect(login.text()).toBe('Log in')
    expect(login.attributes('href')).toBe('/login?email=ann@new.example')
  })

  it('leaves someone else signed in on this browser as they are', async () => {
    server.on('GET', '/api/auth/me', { body: { user: user({ id: 1, email: 'ada@example.com' }) } })
    const { wrapper, pinia } = await mountApp(server, '/confirm-email?token=tok-123')
    await vi.waitFor(() => expect(wrapper.text()).toContain('Your e-mail address is now ann@new.example.'))
    expect(useAuthStore(pinia).user?.email).toBe('ada@example.com')
  })

  it('explains an invalid, expired or used link', async () => {
    server.on('GET', '/api/auth/me', unauthenticated)
    server.on('POST', '/api/account/email/confirm', {
      status: 422,
      body: { message: 'Invalid.', errors: { token: ['This confirmation link is invalid or has expired.'] } },
    })
    const { wrapper } = await mountApp(server, '/confirm-email?token=old')
    await vi.waitFor(() => expect(wrapper.find('[role=alert]').text()).toBe('This confirmation link is invalid or has expired.'))
  })

  it('explains an address taken meanwhile', async () => {
    server.on('GET', '/api/auth/me', unauthenticated)
    server.on('POST', '/api/account/email/confirm', {
      status: 422,
      body: { message: 'Invalid.', errors: { email: ['The email has already been taken.'] } },
    })
    const { wrapper } = await mountApp(server, '/confirm-email?token=tok-123')
    await vi.waitFor(() => expect(wrapper.find('[role=alert]').text()).toBe('The email has already been taken.'))
  })

  it('sends nothing without a token', async () => {
    server.on('GET', '/api/auth/me', unauthenticated)
    const { wrapper } = await mountApp(server, '/confirm-email')
    expect(wrapper.find('[role=alert]').text()).toContain('needs the link from the confirmation e-mail')
    expect(confirms()).toHaveLength(0)
  })
})
