import { flushPromises } from '@vue/test-utils'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useAuthStore } from '@/stores/auth'
import { safeRedirect } from '@/lib/query'
import { startServer, type TestServer } from './support/server'
import { mountApp, unauthenticated, user } from './support/mount-app'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => server.reset())

const signedInAs = (role: string | null) => server.on('GET', '/api/auth/me', { body: { user: user({ role }) } })

describe('route guards', () => {
  it('sends a signed-out visitor of a protected page to /login, remembering the page', async () => {
    server.on('GET', '/api/auth/me', unauthenticated)
    const { router } = await mountApp(server, '/users?page=2')
    expect(router.currentRoute.value.name).toBe('login')
    expect(router.currentRoute.value.query.redirect).toBe('/users?page=2')
  })

  it('sends a signed-in user away from guest pages', async () => {
    signedInAs('user')
    for (const page of ['/login', '/register', '/forgot-password']) {
      const { router, wrapper } = await mountApp(server, page)
      expect(router.currentRoute.value.path).toBe('/dashboard')
      wrapper.unmount()
    }
  })

  it('lets anyone open the mail links', async () => {
    signedInAs('user')
    server.on('POST', '/api/auth/verify-email', { body: { message: 'Verified.', user: user() } })
    const { router } = await mountApp(server, '/reset-password?token=t&email=a%40b.c')
    expect(router.currentRoute.value.path).toBe('/reset-password')
    await router.push('/verify-email?token=t&email=a%40b.c')
    expect(router.currentRoute.value.path).toBe('/verify-email')
  })

  it('keeps /users for admins', async () => {
    signedInAs('user')
    const { router, wrapper } = await mountApp(server, '/users')
    expect(router.currentRoute.value.path).toBe('/dashboard')
    expect(wrapper.text()).toContain('That page is for administrators.')

    signedInAs('admin')
    server.on('GET', '/api/users', { body: { data: { data: [], current_page: 1, last_page: 1, per_page: 10, total: 0, path: '/api/users' } } })
    const admin = await mountApp(server, '/users')
    expect(admin.router.currentRoute.value.path).toBe('/users')
  })

  it('asks the API who is signed in only once', async () => {
    signedInAs('admin')
    server.on('GET', '/api/users', { body: { data: { data: [], current_page: 1, last_page: 1, per_page: 10, total: 0, path: '/api/users' } } })
    const { router } = await mountApp(server, '/dashboard')
    await router.push('/users')
    await router.push('/dashboard')
    expect(server.received.filter((r) => r.path === '/api/auth/me')).toHaveLength(1)
  })

  it('sets the document title from the route', async () => {
    server.on('GET', '/api/auth/me', unauthenticated)
    await mountApp(server, '/register')
    expect(document.title.startsWith('Register')).toBe(true)
  })

  it('shows a not-found page for unknown paths', async () => {
    server.on('GET', '/api/auth/me', unauthenticated)
    const { wrapper } = await mountApp(server, '/no/such/page')
    expect(wrapper.text()).toContain('Page not found')
  })
})

describe('a 401 from the API', () => {
  it('signs the user out and sends them to /login and back to the page afterwards', async () => {
    signedInAs('admin')
    server.on('GET', '/api/users', unauthenticated)
    const { router, wrapper, pinia } = await mountApp(server, '/users?page=2&size=10&search=')
    await vi.waitFor(() => expect(router.currentRoute.value.name).toBe('login'))
    expect(router.currentRoute.value.query.redirect).toBe('/users?page=2&size=10&search=')
    expect(useAuthStore(pinia).user).toBeNull()

    server.on('POST', '/api/auth/login', { body: { user: user(), access_token: 'x' } })
    server.on('GET', '/api/users', { body: { data: { data: [], current_page: 2, last_page: 2, per_page: 10, total: 11, path: '/api/users' } } })
    await wrapper.find('input[name=email]').setValue('ada@example.com')
    await wrapper.find('input[name=password]').setValue('secret-password')
    await wrapper.find('form').trigger('submit')
    await vi.waitFor(() => expect(router.currentRoute.value.fullPath).toBe('/users?page=2&size=10&search='))
  })

  it('from the auth endpoints does not redirect (a failed /me is just "signed out")', async () => {
    server.on('GET', '/api/auth/me', unauthenticated)
    const { router } = await mountApp(server, '/forgot-password')
    await flushPromises()
    expect(router.currentRoute.value.path).toBe('/forgot-password')
  })
})

describe('safeRedirect', () => {
  it('accepts only paths of this app', () => {
    expect(safeRedirect('/users?page=2')).toBe('/users?page=2')
    expect(safeRedirect('https://evil.example')).toBe('/dashboard')
    expect(safeRedirect('//evil.example')).toBe('/dashboard')
    expect(safeRedirect(undefined)).toBe('/dashboard')
  })
})
