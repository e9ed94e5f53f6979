import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useAuthStore } from '@/stores/auth'
import { startServer, type TestServer } from './support/server'
import { mountApp, unauthenticated, user } from './support/mount-app'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  server.on('GET', '/api/auth/me', unauthenticated)
})

/** A link's path and query, decoded. */
const linkTo = (href = '') => {
  const url = new URL(href, 'http://app')
  return { path: url.pathname, query: Object.fromEntries(url.searchParams) }
}
const posts = (path: string) => server.received.filter((r) => r.method === 'POST' && r.path === path)

describe('login page', () => {
  it('signs in with remember me and goes to the dashboard', async () => {
    server.on('POST', '/api/auth/login', { body: { user: user({ name: 'Ann' }), access_token: 'jwt' } })
    const { wrapper, router, pinia } = await mountApp(server, '/login')
    await wrapper.find('input[name=email]').setValue('ann@example.com')
    await wrapper.find('input[name=password]').setValue('secret-password')
    await wrapper.find('input[name=remember]').setValue(true)
    await wrapper.find('form').trigger('submit')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/dashboard'))
    expect(posts('/api/auth/login')[0]!.json).toEqual({ email: 'ann@example.com', password: 'secret-password', remember: true })
    expect(useAuthStore(pinia).user?.name).toBe('Ann')
    await vi.waitFor(() => expect(wrapper.text()).toContain('Welcome, Ann'))
  })

  it('shows the server’s field errors and disables the button while processing', async () => {
    server.on('POST', '/api/auth/login', { status: 422, delay: 150, body: { message: 'Invalid.', errors: { email: ['These credentials do not match our records.'] } } })
    const { wrapper } = await mountApp(server, '/login')
    await wrapper.find('input[name=email]').setValue('ann@example.com')
    await wrapper.find('input[name=password]').setValue('wrong')
    await wrapper.find('form').trigger('submit')
    await vi.waitFor(() => expect(wrapper.find('button[type=submit]').attributes('disabled')).toBeDefined())
    await vi.waitFor(() => expect(wrapper.text()).toContain('These credentials do not match our records.'))
    expect(wrapper.find('button[type=submit]').attributes('disabled')).toBeUndefined()
    expect(wrapper.find('input[name=email]').attributes('aria-invalid')).toBe('true')
    expect(wrapper.find<HTMLInputElement>('input[name=password]').element.value).toBe('')
  })

  it('offers a new verification link after a 403 for an unverified address', async () => {
    server.on('POST', '/api/auth/login', { status: 403, body: { message: 'Verify first.', errors: { email: ['Your e-mail address is not verified.'] } } })
    server.on('POST', '/api/auth/resend-verification', { body: { message: 'If the address is registered, a link is on its way.' } })
    const { wrapper } = await mountApp(server, '/login')
    await wrapper.find('input[name=email]').setValue('new@example.com')
    await wrapper.find('input[name=password]').setValue('secret-password')
    await wrapper.find('form').trigger('submit')
    await vi.waitFor(() => expect(wrapper.text()).toContain('Send the verification link again'))
    const button = wrapper.findAll('button').find((b) => b.text() === 'Send the verification link again')!
    await button.trigger('click')
    await vi.waitFor(() => expect(wrapper.text()).toContain('a link is on its way'))
    expect(posts('/api/auth/resend-verification')[0]!.json).toEqual({ email: 'new@example.com' })
  })

  it('passes the address and the page to return to on to the register page', async () => {
    const { wrapper } = await mountApp(server, '/login?email=ann%40example.com&redirect=%2Fsettings')
    expect(wrapper.find<HTMLInputElement>('input[name=email]').element.value).toBe('ann@example.com')
    const toRegister = wrapper.find('.auth-card__footer a')
    expect(linkTo(toRegister.attributes('href'))).toEqual({ path: '/register', query: { email: 'ann@example.com', redirect: '/settings' } })
  })

  it('shows the message of a failure without field errors', async () => {
    server.on('POST', '/api/auth/login', { status: 429, body: { message: 'Too many attempts. Try again in 60 seconds.' } })
    const { wrapper } = await mountApp(server, '/login')
    await wrapper.find('form').trigger('submit')
    await vi.waitFor(() => expect(wrapper.find('[role=alert]').text()).toBe('Too many attempts. Try again in 60 seconds.'))
  })
})

describe('register page', () => {
  const fill = async (wrapper: any, confirmation = 'secret-password') => {
    await wrapper.find('input[name=name]').setValue('Ann')
    await wrapper.find('input[name=email]').setValue('ann@example.com')
    await wrapper.find('input[name=password]').setValue('secret-password')
    await wrapper.find('input[name=password_confirmation]').setValue(confirmation)
    await wrapper.find('form').trigger('submit')
  }

  it('signs in at once when the API does (no verification)', async () => {
    server.on('POST', '/api/auth/register', { status: 201, body: { user: user({ name: 'Ann', role: 'user' }), access_token: 'jwt' } })
    const { wrapper, router } = await mountApp(server, '/register')
    await fill(wrapper)
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/dashboard'))
    expect(posts('/api/auth/register')[0]!.json).toEqual({ name: 'Ann', email: 'ann@example.com', password: 'secret-password' })
  })

  it('asks to check the inbox on 202 (verification on), naming the address it was given', async () => {
    server.on('POST', '/api/auth/register', { status: 202, body: { message: 'Thanks for registering. Check your inbox.' } })
    const { wrapper, router } = await mountApp(server, '/register')
    await fill(wrapper)
    await vi.waitFor(() => expect(wrapper.text()).toContain('Check your inbox'))
    expect(wrapper.text()).toContain('ann@example.com')
    expect(router.currentRoute.value.path).toBe('/register')
  })

  it('checks the confirmation itself, sending nothing', async () => {
    const { wrapper } = await mountApp(server, '/register')
    await fill(wrapper, 'other')
    expect(wrapper.text()).toContain('The passwords do not match.')
    expect(posts('/api/auth/register')).toHaveLength(0)
  })

  it('takes the address and the page to return to from the link, and passes both on to the login', async () => {
    server.on('POST', '/api/auth/register', { status: 201, body: { user: user({ name: 'Ann', role: 'user' }), access_token: 'jwt' } })
    const { wrapper, router } = await mountApp(server, '/register?email=ann%40example.com&redirect=%2Fsettings%2Fsessions')
    expect(wrapper.find<HTMLInputElement>('input[name=email]').element.value).toBe('ann@example.com')
    const toLogin = wrapper.find('.auth-card__footer a')
    expect(linkTo(toLogin.attributes('href'))).toEqual({ path: '/login', query: { email: 'ann@example.com', redirect: '/settings/sessions' } })
    await fill(wrapper)
    await vi.waitFor(() => expect(router.currentRoute.value.fullPath).toBe('/settings/sessions'))
  })

  it('never leaves the app for a redirect elsewhere', async () => {
    server.on('POST', '/api/auth/register', { status: 201, body: { user: user({ name: 'Ann', role: 'user' }), access_token: 'jwt' } })
    const { wrapper, router } = await mountApp(server, '/register?redirect=%2F%2Fevil.example')
    await fill(wrapper)
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/dashboard'))
  })

  it('shows a duplicate e-mail error under the field', async () => {
    server.on('POST', '/api/auth/register', { status: 422, body: { message: 'Invalid.', errors: { email: ['The email has already been taken.'] } } })
    const { wrapper } = await mountApp(server, '/register')
    await fill(wrapper)
    await vi.waitFor(() => expect(wrapper.text()).toContain('The email has already been taken.'))
  })
})

describe('forgot and reset password', () => {
  it('forgot: shows the API’s message and flashes "Sent."', async () => {
    server.on('POST', '/api/auth/forgot-password', { body: { message: 'If the address is registered, a reset link is on its way.' } })
    const { wrapper } = await mountApp(server, '/forgot-password')
    await wrapper.find('input[name=email]').setValue('ann@example.com')
    await wrapper.find('form').trigger('submit')
    await vi.waitFor(() => expect(wrapper.text()).toContain('a reset link is on its way'))
    expect(wrapper.text()).toContain('Sent.')
    expect(posts('/api/auth/forgot-password')[0]!.json).toEqual({ email: 'ann@example.com' })
  })

  it('reset: reads token and email from the link, then goes to login', async () => {
    server.on('POST', '/api/auth/reset-password', { body: { message: 'Your password has been reset.' } })
    const { wrapper, router } = await mountApp(server, '/reset-password?token=abc123&email=ann%40example.com')
    expect(wrapper.find<HTMLInputElement>('input[name=email]').element.value).toBe('ann@example.com')
    await wrapper.find('input[name=password]').setValue('new-secret-password')
    await wrapper.find('input[name=password_confirmation]').setValue('new-secret-password')
    await wrapper.find('form').trigger('submit')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/login'))
    expect(posts('/api/auth/reset-password')[0]!.json).toEqual({ email: 'ann@example.com', token: 'abc123', password: 'new-secret-password' })
    expect(wrapper.text()).toContain('Your password has been reset.')
  })

  it('reset: explains a bad token', async () => {
    server.on('POST', '/api/auth/reset-password', { status: 422, body: { message: 'Invalid.', errors: { token: ['This password reset link is invalid or has expired.'] } } })
    const { wrapper } = await mountApp(server, '/reset-password?token=old&email=ann%40example.com')
    await wrapper.find('input[name=password]').setValue('new-secret-password')
    await wrapper.find('input[name=password_confirmation]').setValue('new-secret-password')
    await wrapper.find('form').trigger('submit')
    await vi.waitFor(() => expect(wrapper.text()).toContain('invalid or has expired'))
    expect(wrapper.text()).toContain('Request a new link')
  })
})

describe('verify e-mail page', () => {
  it('posts token and email from the link and offers to log in', async () => {
    server.on('POST', '/api/auth/verify-email', { body: { message: 'Your e-mail address is verified.', user: user() } })
    const { wrapper } = await mountApp(server, '/verify-email?token=tok&email=ann%40example.com')
    await vi.waitFor(() => expect(wrapper.text()).toContain('Your e-mail address is verified.'))
    expect(posts('/api/auth/verify-email')[0]!.json).toEqual({ email: 'ann@example.com', token: 'tok' })
    expect(wrapper.find('a.btn--primary').text()).toBe('Log in')
  })

  it('a choose-a-password link (choose=1) asks for a password first, then posts it with the token', async () => {
    server.on('POST', '/api/auth/verify-email', (req) =>
      req.json.password === 'short'
        ? { status: 422, body: { message: 'Too short.', errors: { password: ['The password must be at least 8 characters.'] } } }
        : { body: { message: 'Your e-mail address is verified.', user: user() } },
    )
    const { wrapper } = await mountApp(server, '/verify-email?token=tok&email=ann%40example.com&choose=1')
    await vi.waitFor(() => expect(wrapper.find('input[name="password"]').exists()).toBe(true))
    expect(posts('/api/auth/verify-email')).toHaveLength(0)

    await wrapper.find('input[name="password"]').setValue('short')
    await wrapper.find('input[name="password_confirmation"]').setValue('short')
    await wrapper.find('form').trigger('submit')
    await vi.waitFor(() => expect(wrapper.text()).toContain('at least 8 characters'))
    expect(posts('/api/auth/verify-email')[0]!.json).toEqual({ email: 'ann@example.com', token: 'tok', password: 'short' })

    await wrapper.find('input[name="name"]').setValue('Ann Other')
    await wrapper.find('input[name="password"]').setValue('a long enough one')
    await wrapper.find('input[name="password_confirmation"]').setValue('a long enough one')
    await wrapper.find('form').trigger('submit')
    await vi.waitFor(() => expect(wrapper.text()).toContain('Your e-mail address is verified.'))
    expect(posts('/api/auth/verify-email')[1]!.json).toEqual({ email: 'ann@example.com', token: 'tok', password: 'a long enough one', name: 'Ann Other' })
  })

  it('offers a new link when the token is bad', async () => {
    server.on('POST', '/api/auth/verify-email', { status: 422, body: { message: 'Invalid.', errors: { token: ['This verification link is invalid or has expired.'] } } })
    server.on('POST', '/api/auth/resend-verification', { body: { message: 'A new link is on its way.' } })
    const { wrapper } = await mountApp(server, '/verify-email?token=bad&email=ann%40example.com')
    await vi.waitFor(() => expect(wrapper.text()).toContain('invalid or has expired'))
    await wrapper.find('form').trigger('submit')
    await vi.waitFor(() => expect(wrapper.text()).toContain('A new link is on its way.'))
    expect(posts('/api/auth/resend-verification')[0]!.json).toEqual({ email: 'ann@example.com' })
  })
})

describe('dashboard', () => {
  it('shows the current user and logs out', async () => {
    server.on('GET', '/api/auth/me', { body: { user: user({ name: 'Ann', email: 'ann@example.com', role: 'user' }) } })
    server.on('POST', '/api/auth/logout', { status: 204 })
    const { wrapper, router } = await mountApp(server, '/dashboard')
    expect(wrapper.text()).toContain('Welcome, Ann')
    expect(wrapper.text()).toContain('ann@example.com')
    expect(wrapper.find('a[href="/users"]').exists()).toBe(false)
    const logout = wrapper.findAll('button').find((b) => b.text() === 'Log out')!
    await logout.trigger('click')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/login'))
    expect(posts('/api/auth/logout')).toHaveLength(1)
  })
})
