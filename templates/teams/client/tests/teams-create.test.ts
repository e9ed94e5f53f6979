import { enableAutoUnmount } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeTeamsApi } from './support/fake-teams'
import { startServer, type TestServer } from './support/server'
import { mountApp, unauthenticated, user } from './support/mount-app'

let server: TestServer
let api: ReturnType<typeof fakeTeamsApi>

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  server.on('GET', '/api/auth/me', { body: { user: user({ id: 1, name: 'Ann Owner', role: 'user' }) } })
  api = fakeTeamsApi(server)
})

const sent = (method: string, path: string) => server.received.filter((r) => r.method === method && r.path === path)

describe('creating a team', () => {
  it('is reached from the switcher', async () => {
    const { wrapper, router } = await mountApp(server, '/dashboard')
    await wrapper.find('.team-switcher__toggle').trigger('click')
    await vi.waitFor(() => expect(wrapper.find('.team-switcher__links a[href="/teams/new"]').exists()).toBe(true))
    await wrapper.find('.team-switcher__links a[href="/teams/new"]').trigger('click')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/teams/new'))
    expect(document.title.startsWith('Create a team')).toBe(true)
  })

  it('posts the name, then opens the new team, which the switcher shows as current', async () => {
    const { wrapper, router } = await mountApp(server, '/teams/new')
    await wrapper.find('input[name=name]').setValue('Research')
    await wrapper.find('main form').trigger('submit')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/teams/3'))
    expect(sent('POST', '/api/teams').map((r) => r.json)).toEqual([{ name: 'Research' }])
    await vi.waitFor(() => expect(wrapper.find('h1').text()).toBe('Research'))
    expect(wrapper.find('h1 + .badge').text()).toBe('Owner')
    expect(wrapper.find('.flash').text()).toContain('Team “Research” created.')
    expect(wrapper.find('.team-switcher__toggle').text()).toContain('Research')
    expect(api.current).toBe(3)
  })

  it('shows the API’s error under the field, and keeps the page', async () => {
    const { wrapper, router } = await mountApp(server, '/teams/new')
    await wrapper.find('main form').trigger('submit')
    await vi.waitFor(() => expect(wrapper.find('main [role=alert]').text()).toBe('The name field is required.'))
    expect(wrapper.find('input[name=name]').attributes('aria-invalid')).toBe('true')
    expect(router.currentRoute.value.path).toBe('/teams/new')
  })

  it('needs a signed-in user', async () => {
    server.on('GET', '/api/auth/me', unauthenticated)
    const { router } = await mountApp(server, '/teams/new')
    expect(router.currentRoute.value.fullPath).toBe('/login?redirect=/teams/new')
  })
})
