import { enableAutoUnmount, flushPromises } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useAuthStore } from '@/stores/auth'
import { startServer, type TestServer } from './support/server'
import { mountApp, unauthenticated, user } from './support/mount-app'

// A feature that places a component in the navigation, beside the layers this app has.
vi.mock('@/features', async (importOriginal) => {
  const { features } = await importOriginal<typeof import('@/features')>()
  const { defineComponent, h } = await import('vue')
  const extra = defineComponent({ name: 'NavExtra', render: () => h('button', { type: 'button', class: 'nav-extra' }, 'Extra') })
  return { features: [...features, { nav: [extra] }] }
})

let server: TestServer

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
})

describe('the header’s navigation slot', () => {
  it('shows what a feature places there to a signed-in user, between the links and the user’s name', async () => {
    server.on('GET', '/api/auth/me', { body: { user: user({ name: 'Ann' }) } })
    const { wrapper } = await mountApp(server, '/dashboard')
    const nav = wrapper.find('header nav')
    expect(nav.find('.nav-extra').exists()).toBe(true)
    const order = [...nav.element.children].map((el) => el.className || el.textContent)
    expect(order.indexOf('nav-extra')).toBeGreaterThan(order.indexOf('app-header__spacer'))
    expect(order.indexOf('nav-extra')).toBeLessThan(order.indexOf('app-header__user muted'))
  })

  it('shows nothing of it to a signed-out visitor, and takes it away at sign-out', async () => {
    server.on('GET', '/api/auth/me', unauthenticated)
    const { wrapper, pinia } = await mountApp(server, '/login')
    expect(wrapper.find('.nav-extra').exists()).toBe(false)
    useAuthStore(pinia).signedIn(user())
    await flushPromises()
    expect(wrapper.find('.nav-extra').exists()).toBe(true)
    useAuthStore(pinia).signedOut()
    await flushPromises()
    expect(wrapper.find('.nav-extra').exists()).toBe(false)
  })
})
