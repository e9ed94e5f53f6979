import { enableAutoUnmount, flushPromises, type VueWrapper } from '@vue/test-utils'
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
  server.on('GET', '/api/auth/me', unauthenticated)
  server.on('POST', '/api/auth/two-factor-challenge', (req) =>
    req.json?.code === '123456' || req.json?.recovery_code === 'abcde-12345'
      ? { body: { user: user({ name: 'Ann', twoFactorEnabled: true }), access_token: 'jwt' } }
      : req.json?.code !== undefined
        ? { status: 422, body: { message: 'Invalid.', errors: { code: ['The code is invalid.'] } } }
        : { status: 422, body: { message: 'Invalid.', errors: { recovery_code: ['The recovery code is invalid.'] } } },
  )
})

const challenges = () => server.received.filter((r) => r.method === 'POST' && r.path === '/api/auth/two-factor-challenge')
const button = (wrapper: VueWrapper, text: string) => wrapper.findAll('button').find((b) => b.text() === text)!

async function submit(wrapper: VueWrapper, field: 'code' | 'recovery_code', value: string) {
  await wrapper.find(`input[name=${field}]`).setValue(value)
  await wrapper.find('form').trigger('submit')
}

describe('login of a user with two-factor on', () => {
  it('goes on to the challenge after the password, keeping the page asked for', async () => {
    server.on('POST', '/api/auth/login', { body: { two_factor: true } })
    const { wrapper, router, pinia } = await mountApp(server, '/login?redirect=/settings/profile')
    await wrapper.find('input[name=email]').setValue('ann@example.com')
    await wrapper.find('input[name=password]').setValue('secret-password')
    await wrapper.find('input[name=remember]').setValue(true)
    await wrapper.find('form').trigger('submit')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/two-factor-challenge'))
    expect(router.currentRoute.value.query.redirect).toBe('/settings/profile')
    expect(useAuthStore(pinia).user).toBeNull()
    await vi.waitFor(() => expect(wrapper.find('input[name=code]').exists()).toBe(true))
    expect(document.title.startsWith('Two-factor challenge')).toBe(true)
  })

  it('carries no redirect when none was asked for', async () => {
    server.on('POST', '/api/auth/login', { body: { two_factor: true } })
    const { wrapper, router } = await mountApp(server, '/login')
    await wrapper.find('form').trigger('submit')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/two-factor-challenge'))
    expect(router.currentRoute.value.query).toEqual({})
  })
})

describe('two-factor challenge page', () => {
  it('asks for a one-time code the way phones and password managers recognise', async () => {
    const { wrapper } = await mountApp(server, '/two-factor-challenge')
    const input = wrapper.find('input[name=code]')
    expect(input.attributes('autocomplete')).toBe('one-time-code')
    expect(input.attributes('inputmode')).toBe('numeric')
    expect(wrapper.find('h1').text()).toBe('Two-factor authentication')
  })

  it('signs in with a code and goes to the page asked for', async () => {
    const { wrapper, router, pinia } = await mountApp(server, '/two-factor-challenge?redirect=/settings/profile')
    await submit(wrapper, 'code', '123 456')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/settings/profile'))
    expect(challenges().map((r) => r.json)).toEqual([{ code: '123456' }])
    expect(useAuthStore(pinia).user?.name).toBe('Ann')
  })

  it('goes to the dashboard without a redirect, or with one that leaves the app', async () => {
    const { wrapper, router } = await mountApp(server, '/two-factor-challenge?redirect=//evil.example/')
    await submit(wrapper, 'code', '123456')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/dashboard'))
    await vi.waitFor(() => expect(wrapper.text()).toContain('Welcome, Ann'))
  })

  it('switches to a recovery code and back', async () => {
    const { wrapper, router } = await mountApp(server, '/two-factor-challenge?redirect=/settings/sessions')
    await button(wrapper, 'Use a recovery code').trigger('click')
    await flushPromises()
    expect(wrapper.find('input[name=code]').exists()).toBe(false)
    expect(document.activeElement).toBe(wrapper.find('input[name=recovery_code]').element)
    await button(wrapper, 'Use a code from your app').trigger('click')
    await flushPromises()
    expect(wrapper.find('input[name=recovery_code]').exists()).toBe(false)

    await button(wrapper, 'Use a recovery code').trigger('click')
    await flushPromises()
    await submit(wrapper, 'recovery_code', ' abcde-12345 ')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/settings/sessions'))
    expect(challenges().map((r) => r.json)).toEqual([{ recovery_code: 'abcde-12345' }])
  })

  it('shows a wrong code under its field, emptied for the next try', async () => {
    const { wrapper, router } = await mountApp(server, '/two-factor-challenge')
    await submit(wrapper, 'code', '000000')
    await vi.waitFor(() => expect(wrapper.text()).toContain('The code is invalid.'))
    expect(wrapper.find('input[name=code]').attributes('aria-invalid')).toBe('true')
    expect(wrapper.find<HTMLInputElement>('input[name=code]').element.value).toBe('')
    expect(router.currentRoute.value.path).toBe('/two-factor-challenge')
  })

  it('shows a wrong recovery code under its field', async () => {
    const { wrapper } = await mountApp(server, '/two-factor-challenge')
    await button(wrapper, 'Use a recovery code').trigger('click')
    await flushPromises()
    await submit(wrapper, 'recovery_code', 'used-code')
    await vi.waitFor(() => expect(wrapper.text()).toContain('The recovery code is invalid.'))
    expect(wrapper.find('input[name=recovery_code]').attributes('aria-invalid')).toBe('true')
  })

  it('sends an expired or voided attempt back to /login, keeping the redirect, with a message', async () => {
    server.on('POST', '/api/auth/two-factor-challenge', unauthenticated)
    const { wrapper, router, pinia } = await mountApp(server, '/two-factor-challenge?redirect=/users')
    await submit(wrapper, 'code', '123456')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/login'))
    expect(router.currentRoute.value.query.redirect).toBe('/users')
    expect(useAuthStore(pinia).user).toBeNull()
    await vi.waitFor(() => expect(wrapper.text()).toContain('Your sign-in attempt expired. Please sign in again.'))
  })

  it('shows a throttled answer', async () => {
    server.on('POST', '/api/auth/two-factor-challenge', { status: 429, body: { message: 'Too many attempts. Try again in 60 seconds.' } })
    const { wrapper } = await mountApp(server, '/two-factor-challenge')
    await submit(wrapper, 'code', '123456')
    await vi.waitFor(() => expect(wrapper.find('[role=alert]').text()).toBe('Too many attempts. Try again in 60 seconds.'))
  })

  it('disables the button while the code is checked', async () => {
    server.on('POST', '/api/auth/two-factor-challenge', { delay: 150, body: { user: user(), access_token: 'jwt' } })
    const { wrapper, router } = await mountApp(server, '/two-factor-challenge')
    await submit(wrapper, 'code', '123456')
    await vi.waitFor(() => expect(wrapper.find('button[type=submit]').attributes('disabled')).toBeDefined())
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/dashboard'))
  })

  it('is for signed-out visitors only', async () => {
    server.on('GET', '/api/auth/me', { body: { user: user() } })
    const { router } = await mountApp(server, '/two-factor-challenge')
    expect(router.currentRoute.value.path).toBe('/dashboard')
  })
})
