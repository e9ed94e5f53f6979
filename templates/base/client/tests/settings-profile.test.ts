import { enableAutoUnmount } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { features } from '@/features'
import { t } from '@/lib/i18n'
import { useAuthStore } from '@/stores/auth'
import { startServer, type TestServer } from './support/server'
import { mountApp, unauthenticated, user } from './support/mount-app'

let server: TestServer
// The settings pages feature layers add, between Security and Delete account, under their titles.
const featurePages = features.flatMap((feature) => feature.settings ?? []).map((page) => t(page.meta.title))

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  server.on('GET', '/api/auth/me', { body: { user: user({ name: 'Ann', email: 'ann@example.com', role: 'user' }) } })
})

const sent = (method: string, path: string) => server.received.filter((r) => r.method === method && r.path === path)

describe('settings layout', () => {
  it('opens /settings at the profile, with the section marked in the navigation', async () => {
    const { wrapper, router } = await mountApp(server, '/settings')
    expect(router.currentRoute.value.path).toBe('/settings/profile')
    expect(document.title.startsWith('Profile')).toBe(true)
    const nav = wrapper.find('nav[aria-label=Settings]')
    expect(nav.findAll('a').map((a) => a.text())).toEqual(['Profile', 'Password', 'Sessions', 'Security', ...featurePages, 'Delete account'])
    expect(nav.find('[aria-current=page]').text()).toBe('Profile')
    await router.push('/settings/sessions')
    expect(nav.find('[aria-current=page]').text()).toBe('Sessions')
  })

  it('is linked from the header for signed-in users', async () => {
    const { wrapper } = await mountApp(server, '/dashboard')
    expect(wrapper.find('header a[href="/settings"]').text()).toBe('Settings')
  })

  it('sends a signed-out visitor to /login, remembering the section', async () => {
    server.on('GET', '/api/auth/me', unauthenticated)
    const { wrapper, router } = await mountApp(server, '/settings/password')
    expect(router.currentRoute.value.name).toBe('login')
    expect(router.currentRoute.value.query.redirect).toBe('/settings/password')
    expect(wrapper.find('header a[href="/settings"]').exists()).toBe(false)
  })
})

describe('profile settings: name', () => {
  it('saves the name, updates the signed-in user and says "Saved."', async () => {
    server.on('PATCH', '/api/account/profile', (req) => ({ body: { user: user({ name: req.json.name, email: 'ann@example.com', role: 'user' }) } }))
    const { wrapper, pinia } = await mountApp(server, '/settings/profile')
    const name = wrapper.find<HTMLInputElement>('input[name=name]')
    expect(name.element.value).toBe('Ann')
    await name.setValue('Ann Lovelace')
    await wrapper.findAll('form')[0]!.trigger('submit')
    await vi.waitFor(() => expect(wrapper.text()).toContain('Saved.'))
    expect(sent('PATCH', '/api/account/profile')[0]!.json).toEqual({ name: 'Ann Lovelace' })
    expect(useAuthStore(pinia).user?.name).toBe('Ann Lovelace')
    expect(wrapper.find('.app-header__user').text()).toBe('Ann Lovelace')
  })

  it('shows the server’s error under the field and disables the button meanwhile', async () => {
    server.on('PATCH', '/api/account/profile', { status: 422, delay: 150, body: { message: 'Invalid.', errors: { name: ['The name may not contain line breaks.'] } } })
    const { wrapper, pinia } = await mountApp(server, '/settings/profile')
    await wrapper.find('input[name=name]').setValue('Ann')
    await wrapper.findAll('form')[0]!.trigger('submit')
    const button = () => wrapper.findAll('form')[0]!.find('button[type=submit]')
    await vi.waitFor(() => expect(button().attributes('disabled')).toBeDefined())
    await vi.waitFor(() => expect(wrapper.text()).toContain('The name may not contain line breaks.'))
    expect(button().attributes('disabled')).toBeUndefined()
    expect(wrapper.find('input[name=name]').attributes('aria-invalid')).toBe('true')
    expect(wrapper.text()).not.toContain('Saved.')
    expect(useAuthStore(pinia).user?.name).toBe('Ann')
  })
})

describe('profile settings: e-mail', () => {
  const fill = async (wrapper: any, email = 'ann@new.example', password = 'secret-password') => {
    await wrapper.find('input[name=email]').setValue(email)
    await wrapper.find('input[name=password]').setValue(password)
    await wrapper.findAll('form')[1]!.trigger('submit')
  }

  it('asks for a link to the new address, then says where to look; nothing changes yet', async () => {
    server.on('POST', '/api/account/email', { body: { message: 'Check your inbox.' } })
    const { wrapper, pinia } = await mountApp(server, '/settings/profile')
    expect(wrapper.text()).toContain('Your address is ann@example.com')
    await fill(wrapper)
    await vi.waitFor(() => expect(wrapper.text()).toContain('Pending: check your inbox at ann@new.example'))
    expect(sent('POST', '/api/account/email')[0]!.json).toEqual({ email: 'ann@new.example', password: 'secret-password' })
    expect(useAuthStore(pinia).user?.email).toBe('ann@example.com')
    expect(wrapper.find('input[name=email]').exists()).toBe(false)

    // Another address after all: the form again, empty.
    await wrapper.findAll('button').find((b) => b.text() === 'Use a different address')!.trigger('click')
    expect(wrapper.find<HTMLInputElement>('input[name=email]').element.value).toBe('')
    expect(wrapper.find<HTMLInputElement>('input[name=password]').element.value).toBe('')
  })

  it('keeps the pending address while moving between the settings pages', async () => {
    server.on('POST', '/api/account/email', { body: { message: 'Check your inbox.' } })
    const { wrapper, router } = await mountApp(server, '/settings/profile')
    await fill(wrapper)
    await vi.waitFor(() => expect(wrapper.text()).toContain('Pending: check your inbox at ann@new.example'))
    await router.push('/settings/password')
    await router.push('/settings/profile')
    expect(wrapper.text()).toContain('Pending: check your inbox at ann@new.example')
  })

  it('shows a wrong password under the password field and empties it', async () => {
    server.on('POST', '/api/account/email', { status: 422, body: { message: 'Invalid.', errors: { password: ['The password is incorrect.'] } } })
    const { wrapper } = await mountApp(server, '/settings/profile')
    await fill(wrapper, 'ann@new.example', 'wrong')
    await vi.waitFor(() => expect(wrapper.text()).toContain('The password is incorrect.'))
    expect(wrapper.find('input[name=password]').attributes('aria-invalid')).toBe('true')
    expect(wrapper.find<HTMLInputElement>('input[name=password]').element.value).toBe('')
    expect(wrapper.find<HTMLInputElement>('input[name=email]').element.value).toBe('ann@new.example')
    expect(wrapper.text()).not.toContain('Pending')
  })

  it('shows a failure without field errors above the form (too many attempts)', async () => {
    server.on('POST', '/api/account/email', { status: 429, body: { message: 'Too many attempts. Try again in 60 seconds.' } })
    const { wrapper } = await mountApp(server, '/settings/profile')
    await fill(wrapper)
    await vi.waitFor(() => expect(wrapper.find('[role=alert]').text()).toBe('Too many attempts. Try again in 60 seconds.'))
  })
})
