import { enableAutoUnmount, type VueWrapper } from '@vue/test-utils'
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
  server.on('POST', '/api/auth/email-sign-in', { status: 202, body: { message: 'Check your inbox.' } })
  server.on('POST', '/api/auth/email-sign-in/status', { status: 202, body: { status: 'pending' } })
})

const posts = (path: string) => server.received.filter((r) => r.method === 'POST' && r.path === path)
const button = (wrapper: VueWrapper, text: string) => wrapper.findAll('button').find((b) => b.text() === text)!

async function ask(wrapper: VueWrapper, email: string) {
  await wrapper.find('input[name=email]').setValue(email)
  await wrapper.find('form').trigger('submit')
  await vi.waitFor(() => expect(wrapper.find('input[name=code]').exists()).toBe(true))
}

describe('the login page', () => {
  it('offers "E-mail me a sign-in link", carrying the redirect and "Remember me"', async () => {
    const { wrapper, router } = await mountApp(server, '/login?redirect=/settings/profile')
    await wrapper.find('input[name=remember]').setValue(true)
    const link = wrapper.findAll('a').find((a) => a.text() === 'E-mail me a sign-in link')!
    await link.trigger('click')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/login/email'))
    expect(router.currentRoute.value.query).toEqual({ redirect: '/settings/profile', remember: '1' })
    await vi.waitFor(() => expect((wrapper.find('input[name=remember]').element as HTMLInputElement).checked).toBe(true))
  })
})

describe('/login/email', () => {
  it('asks for the address, then signs in with the code typed here and goes to the page asked for', async () => {
    server.on('POST', '/api/auth/email-sign-in/verify', (req) =>
      req.json?.code === '123456' ? { body: { user: user({ name: 'Ann' }), access_token: 'jwt' } } : { status: 422, body: { message: 'Wrong.', errors: { code: ['Wrong.'] } } },
    )
    const { wrapper, router, pinia } = await mountApp(server, '/login/email?redirect=/settings/profile')
    await ask(wrapper, 'ann@example.com')
    expect(posts('/api/auth/email-sign-in').map((r) => r.json)).toEqual([{ email: 'ann@example.com', remember: false }])
    expect(wrapper.text()).toContain('Check your inbox.')
    const input = wrapper.find('input[name=code]')
    expect(input.attributes('autocomplete')).toBe('one-time-code')
    expect(input.attributes('inputmode')).toBe('numeric')

    await input.setValue('000000')
    await wrapper.find('form').trigger('submit')
    await vi.waitFor(() => expect(wrapper.text()).toContain('Wrong.'))
    await wrapper.find('input[name=code]').setValue('123 456')
    await wrapper.find('form').trigger('submit')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/settings/profile'))
    expect(posts('/api/auth/email-sign-in/verify').at(-1)?.json).toEqual({ email: 'ann@example.com', code: '123456' })
    expect(useAuthStore(pinia).user?.name).toBe('Ann')
  })

  it('signs in by itself once the link was confirmed on another device', async () => {
    let polls = 0
    server.on('POST', '/api/auth/email-sign-in/status', () =>
      ++polls < 2 ? { status: 202, body: { status: 'pending' } } : { body: { user: user({ name: 'Ann' }), access_token: 'jwt' } },
    )
    const { wrapper, router } = await mountApp(server, '/login/email')
    await ask(wrapper, 'ann@example.com')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/dashboard'), { timeout: 10_000 })
    expect(polls).toBe(2)
  }, 15_000)
})

describe('the link\'s page', () => {
  it('in the browser that asked: signs in, with the token gone from the address bar', async () => {
    server.on('POST', '/api/auth/email-sign-in/verify', { body: { user: user({ name: 'Ann' }), access_token: 'jwt' } })
    const { router } = await mountApp(server, '/login/email?token=abc')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/dashboard'))
    expect(posts('/api/auth/email-sign-in/verify').map((r) => r.json)).toEqual([{ token: 'abc' }])
  })

  it('elsewhere: asks "Sign in on the device that asked?" and, confirmed, lets that one in', async () => {
    server.on('POST', '/api/auth/email-sign-in/verify', { body: { other_device: true } })
    server.on('POST', '/api/auth/email-sign-in/approve', { body: { message: 'Done: the device that asked is signing in now.' } })
    const { wrapper, router } = await mountApp(server, '/login/email?token=abc')
    await vi.waitFor(() => expect(wrapper.find('h2').text()).toBe('Sign in on the device that asked?'))
    expect(router.currentRoute.value.query.token).toBeUndefined()
    await button(wrapper, 'Yes, sign in there').trigger('click')
    await vi.waitFor(() => expect(wrapper.text()).toContain('Done: the device that asked is signing in now.'))
    expect(posts('/api/auth/email-sign-in/approve').map((r) => r.json)).toEqual([{ token: 'abc' }])
    expect(router.currentRoute.value.path).toBe('/login/email')
  })

  it('a used or expired link says so and offers a new one', async () => {
    server.on('POST', '/api/auth/email-sign-in/verify', { status: 422, body: { message: 'This link is invalid or has expired.', errors: { token: ['This link is invalid or has expired.'] } } })
    const { wrapper } = await mountApp(server, '/login/email?token=abc')
    await vi.waitFor(() => expect(wrapper.text()).toContain('This link is invalid or has expired.'))
    expect(wrapper.findAll('a').some((a) => a.text() === 'Ask for a new link')).toBe(true)
  })
})
