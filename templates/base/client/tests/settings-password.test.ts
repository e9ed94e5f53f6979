import { enableAutoUnmount } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { startServer, type TestServer } from './support/server'
import { mountApp, user } from './support/mount-app'

let server: TestServer

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  server.on('GET', '/api/auth/me', { body: { user: user({ name: 'Ann', email: 'ann@example.com', role: 'user' }) } })
})

const puts = () => server.received.filter((r) => r.method === 'PUT' && r.path === '/api/account/password')
const value = (wrapper: any, name: string) => wrapper.find(`input[name=${name}]`).element.value as string

async function fill(wrapper: any, current = 'old-password-1', next = 'new-password-2', confirmation = next) {
  await wrapper.find('input[name=current_password]').setValue(current)
  await wrapper.find('input[name=password]').setValue(next)
  await wrapper.find('input[name=password_confirmation]').setValue(confirmation)
  await wrapper.find('form').trigger('submit')
}

describe('password settings', () => {
  it('changes the password, says "Saved." and empties the fields', async () => {
    server.on('PUT', '/api/account/password', { body: { message: 'Your password has been changed.' } })
    const { wrapper, router } = await mountApp(server, '/settings/password')
    expect(document.title.startsWith('Password')).toBe(true)
    await fill(wrapper)
    await vi.waitFor(() => expect(wrapper.text()).toContain('Saved.'))
    expect(puts()[0]!.json).toEqual({ current_password: 'old-password-1', password: 'new-password-2' })
    expect(['current_password', 'password', 'password_confirmation'].map((n) => value(wrapper, n))).toEqual(['', '', ''])
    // This session stays signed in.
    expect(router.currentRoute.value.path).toBe('/settings/password')
  })

  it('checks the confirmation itself, sending nothing', async () => {
    const { wrapper } = await mountApp(server, '/settings/password')
    await fill(wrapper, 'old-password-1', 'new-password-2', 'something-else')
    expect(wrapper.text()).toContain('The passwords do not match.')
    expect(wrapper.find('input[name=password_confirmation]').attributes('aria-invalid')).toBe('true')
    expect(puts()).toHaveLength(0)
  })

  it('shows a wrong current password under its field, emptying only that one', async () => {
    server.on('PUT', '/api/account/password', {
      status: 422,
      delay: 100,
      body: { message: 'Invalid.', errors: { current_password: ['The password is incorrect.'] } },
    })
    const { wrapper } = await mountApp(server, '/settings/password')
    await fill(wrapper, 'wrong')
    await vi.waitFor(() => expect(wrapper.find('button[type=submit]').attributes('disabled')).toBeDefined())
    await vi.waitFor(() => expect(wrapper.text()).toContain('The password is incorrect.'))
    expect(wrapper.find('button[type=submit]').attributes('disabled')).toBeUndefined()
    expect(wrapper.find('input[name=current_password]').attributes('aria-invalid')).toBe('true')
    expect(value(wrapper, 'current_password')).toBe('')
    expect(value(wrapper, 'password')).toBe('new-password-2')
    expect(wrapper.text()).not.toContain('Saved.')
  })

  it('shows a rejected new password under its field', async () => {
    server.on('PUT', '/api/account/password', {
      status: 422,
      body: { message: 'Invalid.', errors: { password: ['The password must be at least 8 characters.'] } },
    })
    const { wrapper } = await mountApp(server, '/settings/password')
    await fill(wrapper, 'old-password-1', 'short', 'short')
    await vi.waitFor(() => expect(wrapper.text()).toContain('The password must be at least 8 characters.'))
    expect(value(wrapper, 'current_password')).toBe('old-password-1')
    expect(value(wrapper, 'password')).toBe('')
    expect(value(wrapper, 'password_confirmation')).toBe('')
  })

  it('shows a throttled answer above the form', async () => {
    server.on('PUT', '/api/account/password', { status: 429, body: { message: 'Too many attempts. Try again in 60 seconds.' } })
    const { wrapper } = await mountApp(server, '/settings/password')
    await fill(wrapper)
    await vi.waitFor(() => expect(wrapper.find('[role=alert]').text()).toBe('Too many attempts. Try again in 60 seconds.'))
  })
})
