import { enableAutoUnmount } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { startServer, type TestServer } from './support/server'
import { mountApp, unauthenticated, user } from './support/mount-app'
import { isPrecognitive, precognitive } from './support/precognition'

// The forms that validate as the user leaves a field, against the route's own rules.
let server: TestServer

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => server.reset())

const password = (v: string) => (v?.length >= 8 ? undefined : 'The password must be at least 8 characters.')
const checks = () => server.received.filter(isPrecognitive)
const real = () => server.received.filter((r) => r.method !== 'GET' && !isPrecognitive(r))

/** Types into a field and leaves it, as a user tabbing on does. */
async function fillAndLeave(wrapper: any, name: string, value: string) {
  const input = wrapper.find(`input[name=${name}]`)
  await input.setValue(value)
  await input.trigger('blur')
}

describe('register', () => {
  beforeEach(() => {
    server.on('GET', '/api/auth/me', unauthenticated)
    server.on('POST', '/api/auth/register', precognitive({ email: (v) => (v === 'taken@example.com' ? 'The email has already been taken.' : undefined), password }))
  })

  it('says a taken e-mail as the user leaves the field, before any submit', async () => {
    const { wrapper } = await mountApp(server, '/register')
    await fillAndLeave(wrapper, 'email', 'taken@example.com')
    await vi.waitFor(() => expect(wrapper.text()).toContain('The email has already been taken.'))
    expect(wrapper.find('input[name=email]').attributes('aria-invalid')).toBe('true')
    expect(checks()[0]!.headers['precognition-validate-only']).toBe('email')
    // The confirmation is the page's own business: never sent.
    expect(checks()[0]!.json).toEqual({ name: '', email: 'taken@example.com', password: '' })
    expect(real()).toHaveLength(0)
  })

  it('clears the error once the field is fixed and left again', async () => {
    const { wrapper } = await mountApp(server, '/register')
    await fillAndLeave(wrapper, 'password', 'short')
    await vi.waitFor(() => expect(wrapper.text()).toContain('at least 8 characters'))
    // Within the debounce's quiet period: the fix goes out once that is over.
    await fillAndLeave(wrapper, 'password', 'long-enough-1')
    await vi.waitFor(() => expect(wrapper.text()).not.toContain('at least 8 characters'), { timeout: 3000 })
    expect(checks()).toHaveLength(2)
  })

  it('leaving a field untouched asks nothing', async () => {
    const { wrapper } = await mountApp(server, '/register')
    await wrapper.find('input[name=name]').trigger('blur')
    await new Promise((r) => setTimeout(r, 50))
    expect(checks()).toHaveLength(0)
  })

  it('checks the confirmation on leaving it, without a request', async () => {
    const { wrapper } = await mountApp(server, '/register')
    await wrapper.find('input[name=password]').setValue('long-enough-1')
    await fillAndLeave(wrapper, 'password_confirmation', 'something-else')
    expect(wrapper.text()).toContain('The passwords do not match.')
    await fillAndLeave(wrapper, 'password_confirmation', 'long-enough-1')
    expect(wrapper.text()).not.toContain('The passwords do not match.')
    expect(checks().filter((c) => c.headers['precognition-validate-only']?.includes('confirmation'))).toHaveLength(0)
  })
})

describe('reset password', () => {
  it('validates the new password on leaving it, with the token in the body', async () => {
    server.on('GET', '/api/auth/me', unauthenticated)
    server.on('POST', '/api/auth/reset-password', precognitive({ password }))
    const { wrapper } = await mountApp(server, '/reset-password?token=abc&email=ann@example.com')
    await fillAndLeave(wrapper, 'password', 'short')
    await vi.waitFor(() => expect(wrapper.text()).toContain('at least 8 characters'))
    expect(checks()[0]!.json).toEqual({ email: 'ann@example.com', token: 'abc', password: 'short' })
    expect(real()).toHaveLength(0)
  })
})

describe('settings', () => {
  beforeEach(() => server.on('GET', '/api/auth/me', { body: { user: user({ name: 'Ann', role: 'user' }) } }))

  it('password: the new password is checked on leaving it', async () => {
    server.on('PUT', '/api/account/password', precognitive({ password }))
    const { wrapper } = await mountApp(server, '/settings/password')
    await fillAndLeave(wrapper, 'password', 'short')
    await vi.waitFor(() => expect(wrapper.text()).toContain('at least 8 characters'))
    expect(checks()[0]).toMatchObject({ method: 'PUT', json: { current_password: '', password: 'short' } })
    expect(real()).toHaveLength(0)
  })

  it('profile: an emptied name is flagged on leaving it', async () => {
    server.on('PATCH', '/api/account/profile', precognitive({ name: (v) => (v ? undefined : 'The name field is required.') }))
    const { wrapper } = await mountApp(server, '/settings/profile')
    await fillAndLeave(wrapper, 'name', '')
    await vi.waitFor(() => expect(wrapper.text()).toContain('The name field is required.'))
    expect(checks()[0]).toMatchObject({ method: 'PATCH', json: { name: '' } })
    expect(real()).toHaveLength(0)
  })
})
