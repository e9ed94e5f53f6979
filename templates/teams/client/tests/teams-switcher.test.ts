import { enableAutoUnmount, flushPromises, type VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useAuthStore } from '@/stores/auth'
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

const toggle = (wrapper: VueWrapper) => wrapper.find('header .team-switcher__toggle')
const choices = (wrapper: VueWrapper) => wrapper.findAll('.team-switcher__team')
const sent = (method: string, path: string) => server.received.filter((r) => r.method === method && r.path === path)

async function openMenu(wrapper: VueWrapper) {
  await toggle(wrapper).trigger('click')
  await vi.waitFor(() => expect(choices(wrapper).length).toBeGreaterThan(0))
}

describe('team switcher', () => {
  it('shows the current team in the navigation, named for screen readers as the team', async () => {
    const { wrapper } = await mountApp(server, '/dashboard')
    await vi.waitFor(() => expect(toggle(wrapper).text()).toContain('Acme'))
    expect(toggle(wrapper).text().replace(/\s+/g, ' ')).toMatch(/^Team: Acme/)
    expect(toggle(wrapper).attributes('aria-expanded')).toBe('false')
    expect(wrapper.find('.team-switcher__menu').exists()).toBe(false)
  })

  it('is not there for a signed-out visitor, and asks nothing about teams', async () => {
    server.on('GET', '/api/auth/me', unauthenticated)
    const { wrapper } = await mountApp(server, '/login')
    expect(wrapper.find('.team-switcher').exists()).toBe(false)
    expect(sent('GET', '/api/teams')).toHaveLength(0)
  })

  it('lists the teams, the current one marked, with links to its page and to a new team', async () => {
    const { wrapper } = await mountApp(server, '/dashboard')
    await openMenu(wrapper)
    expect(toggle(wrapper).attributes('aria-expanded')).toBe('true')
    expect(choices(wrapper).map((c) => c.text())).toEqual(['Ann’s Team', 'AcmeCurrent'])
    expect(choices(wrapper)[1]!.attributes('aria-current')).toBe('true')
    // Focus moves into the menu, on the current team.
    await vi.waitFor(() => expect(document.activeElement).toBe(choices(wrapper)[1]!.element))
    const links = wrapper.findAll('.team-switcher__links a').map((a) => [a.text(), a.attributes('href')])
    expect(links).toEqual([['Team settings', '/teams/2'], ['Create a team', '/teams/new']])
  })

  it('switches: PUT /api/teams/current with the team’s id, then shows it and says so', async () => {
    const { wrapper } = await mountApp(server, '/dashboard')
    await openMenu(wrapper)
    await choices(wrapper)[0]!.trigger('click')
    await vi.waitFor(() => expect(toggle(wrapper).text()).toContain('Ann’s Team'))
    expect(sent('PUT', '/api/teams/current').map((r) => r.json)).toEqual([{ team_id: 1 }])
    expect(api.current).toBe(1)
    expect(wrapper.find('.team-switcher__menu').exists()).toBe(false)
    expect(document.activeElement).toBe(toggle(wrapper).element)
    expect(wrapper.find('.flash').text()).toContain('Switched to Ann’s Team.')
  })

  it('on a team’s page, the page follows the switch', async () => {
    const { wrapper, router } = await mountApp(server, '/teams/2')
    await vi.waitFor(() => expect(wrapper.find('h1').text()).toBe('Acme'))
    await openMenu(wrapper)
    await choices(wrapper)[0]!.trigger('click')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/teams/1'))
    await vi.waitFor(() => expect(wrapper.find('h1').text()).toBe('Ann’s Team'))
  })

  it('a team gone meanwhile: says so and lists what is left', async () => {
    const { wrapper } = await mountApp(server, '/dashboard')
    await openMenu(wrapper)
    api.removeMe(2)
    // Still listed until the next load; the choice of the personal team goes through.
    server.on('PUT', '/api/teams/current', { status: 422, body: { message: 'Invalid.', errors: { team_id: ['The selected team is invalid.'] } } })
    await choices(wrapper)[0]!.trigger('click')
    await vi.waitFor(() => expect(wrapper.find('.flash').text()).toContain('The selected team is invalid.'))
    await openMenu(wrapper)
    await vi.waitFor(() => expect(choices(wrapper).map((c) => c.text())).toEqual(['Ann’s Team']))
  })

  it('closes on Escape, back on its button, and when the user goes elsewhere', async () => {
    const { wrapper, router } = await mountApp(server, '/dashboard')
    await openMenu(wrapper)
    await wrapper.find('.team-switcher').trigger('keydown', { key: 'Escape' })
    expect(wrapper.find('.team-switcher__menu').exists()).toBe(false)
    expect(document.activeElement).toBe(toggle(wrapper).element)
    await openMenu(wrapper)
    await router.push('/settings/profile')
    await flushPromises()
    expect(wrapper.find('.team-switcher__menu').exists()).toBe(false)
  })

  it('forgets the previous user’s teams when someone else signs in', async () => {
    const { wrapper, pinia } = await mountApp(server, '/dashboard')
    await vi.waitFor(() => expect(toggle(wrapper).text()).toContain('Acme'))
    const auth = useAuthStore(pinia)
    auth.signedOut()
    await flushPromises()
    expect(wrapper.find('.team-switcher').exists()).toBe(false)
    server.on('GET', '/api/teams', { delay: 100, body: { data: [{ id: 9, name: 'Zed’s Team', personal: true, role: 'owner', current: true }] } })
    auth.signedIn(user({ id: 9, name: 'Zed' }))
    await flushPromises()
    expect(toggle(wrapper).text()).not.toContain('Acme')
    await vi.waitFor(() => expect(toggle(wrapper).text()).toContain('Zed’s Team'))
  })
})
