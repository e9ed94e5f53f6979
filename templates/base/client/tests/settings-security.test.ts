import { enableAutoUnmount } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AccountActivity, Paginated } from '@/types'
import { startServer, type TestServer } from './support/server'
import { mountApp, unauthenticated, user } from './support/mount-app'

let server: TestServer
let events: AccountActivity[]

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString()
// In the runtime's own language, as the page writes it.
const ago = (n: number, unit: Intl.RelativeTimeFormatUnit) => new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(-n, unit)
const event = (overrides: Partial<AccountActivity>): AccountActivity => ({
  id: 1,
  type: 'sign_in',
  device: 'Chrome on Linux',
  ip: '203.0.113.7',
  createdAt: minutesAgo(1),
  current: false,
  ...overrides,
})

// What the API answers: the paginated shape of every list, `size` per page.
function page(n: number, size: number): Paginated<AccountActivity> {
  const from = (n - 1) * size
  const data = events.slice(from, from + size)
  return {
    data,
    current_page: n,
    last_page: Math.max(1, Math.ceil(events.length / size)),
    per_page: size,
    total: events.length,
    path: '/api/account/activity',
    from: data.length ? from + 1 : null,
    to: data.length ? from + data.length : null,
  }
}

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  events = [
    event({ id: 3, type: 'new_device', device: 'Firefox on macOS', current: true, createdAt: minutesAgo(2) }),
    event({ id: 2, type: 'password_changed', device: 'Safari on iOS', ip: null, createdAt: minutesAgo(3 * 60) }),
    event({ id: 1, type: 'passkey_synced_elsewhere', createdAt: minutesAgo(2 * 24 * 60) }),
  ]
  server.on('GET', '/api/auth/me', { body: { user: user({ name: 'Ann', role: 'user' }) } })
  server.on('GET', '/api/account/activity', (req) => ({
    body: { data: page(Number(req.query.page ?? 1), Number(req.query.size ?? 10)) },
  }))
})

const lists = () => server.received.filter((r) => r.method === 'GET' && r.path === '/api/account/activity')
const items = (wrapper: any) => wrapper.findAll('.session-list > li')
const button = (wrapper: any, text: string) => wrapper.findAll('button').find((b: any) => b.text() === text)

describe('security settings: the activity', () => {
  it('lists the events in words, newest first, with device, IP and time, this session marked', async () => {
    const { wrapper } = await mountApp(server, '/settings/security')
    await vi.waitFor(() => expect(items(wrapper)).toHaveLength(3))
    expect(document.title.startsWith('Security')).toBe(true)
    expect(lists()[0]!.query).toEqual({ page: '1', size: '10' })
    expect(wrapper.find('.settings__nav [aria-current=page]').text()).toBe('Security')

    const [device, password, unknown] = items(wrapper)
    expect(device.find('strong').text()).toBe('New device signed in')
    expect(device.text()).toContain('Firefox on macOS')
    expect(device.text()).toContain('203.0.113.7')
    expect(device.text()).toContain(ago(2, 'minute'))
    expect(device.text()).toContain('This session')

    expect(password.find('strong').text()).toBe('Password changed')
    expect(password.text()).toContain('Safari on iOS')
    expect(password.text()).toContain('IP address unknown')
    expect(password.text()).toContain(ago(3, 'hour'))
    expect(password.text()).not.toContain('This session')
    expect(password.find('time').attributes('datetime')).toBe(events[1]!.createdAt)

    // A kind this client does not know yet.
    expect(unknown.find('strong').text()).toBe('Passkey synced elsewhere')
    expect(unknown.text()).toContain(ago(2, 'day'))

    // One page only: nothing to page through.
    expect(wrapper.find('nav[aria-label=Pagination]').exists()).toBe(false)
  })

  it('says so when there is nothing yet', async () => {
    events = []
    const { wrapper } = await mountApp(server, '/settings/security')
    await vi.waitFor(() => expect(wrapper.text()).toContain('No activity yet.'))
    expect(items(wrapper)).toHaveLength(0)
  })

  it('shows why the list could not load', async () => {
    server.on('GET', '/api/account/activity', { status: 500, body: { message: 'Server error.' } })
    const { wrapper } = await mountApp(server, '/settings/security')
    await vi.waitFor(() => expect(wrapper.find('[role=alert]').text()).toBe('Server error.'))
    expect(wrapper.text()).not.toContain('Loading…')
  })

  it('sends a browser whose own session ended to /login', async () => {
    server.on('GET', '/api/account/activity', unauthenticated)
    const { router } = await mountApp(server, '/settings/security')
    await vi.waitFor(() => expect(router.currentRoute.value.name).toBe('login'))
    expect(router.currentRoute.value.query.redirect).toBe('/settings/security')
  })
})

describe('security settings: paging', () => {
  beforeEach(() => {
    events = Array.from({ length: 23 }, (_, i) => event({ id: 23 - i, createdAt: minutesAgo(i + 1), device: `Device ${23 - i}` }))
  })

  it('asks the server for the older page, keeps it in the route, and comes back', async () => {
    const { wrapper, router } = await mountApp(server, '/settings/security')
    await vi.waitFor(() => expect(items(wrapper)).toHaveLength(10))
    const pager = wrapper.find('nav[aria-label=Pagination]')
    expect(pager.text()).toContain('Page 1 of 3')
    expect(button(pager, 'Newer').attributes('disabled')).toBeDefined()

    await button(pager, 'Older').trigger('click')
    await vi.waitFor(() => expect(items(wrapper)[0].text()).toContain('Device 13'))
    expect(lists().map((r) => r.query)).toEqual([
      { page: '1', size: '10' },
      { page: '2', size: '10' },
    ])
    expect(router.currentRoute.value.fullPath).toBe('/settings/security?page=2')
    expect(wrapper.find('nav[aria-label=Pagination]').text()).toContain('Page 2 of 3')

    router.back()
    await vi.waitFor(() => expect(items(wrapper)[0].text()).toContain('Device 23'))
    expect(lists().at(-1)!.query).toEqual({ page: '1', size: '10' })
  })

  it('shows the page the route is on when an older answer arrives last', async () => {
    server.on('GET', '/api/account/activity', (req) => ({
      body: { data: page(Number(req.query.page), 10) },
      delay: req.query.page === '2' ? 200 : 0,
    }))
    const { wrapper, router } = await mountApp(server, '/settings/security')
    await vi.waitFor(() => expect(items(wrapper)).toHaveLength(10))
    await button(wrapper, 'Older').trigger('click')
    await vi.waitFor(() => expect(lists()).toHaveLength(2))
    router.back()
    await vi.waitFor(() => expect(lists()).toHaveLength(3))
    await new Promise((r) => setTimeout(r, 300))
    expect(router.currentRoute.value.fullPath).toBe('/settings/security')
    expect(items(wrapper)[0].text()).toContain('Device 23')
  })

  it('opens the page the route names, and the last one for a page past the end', async () => {
    const { wrapper, router } = await mountApp(server, '/settings/security?page=3')
    await vi.waitFor(() => expect(items(wrapper)).toHaveLength(3))
    expect(button(wrapper, 'Older').attributes('disabled')).toBeDefined()

    await router.push('/settings/security?page=9')
    await vi.waitFor(() => expect(router.currentRoute.value.fullPath).toBe('/settings/security?page=3'))
    await vi.waitFor(() => expect(lists().at(-1)!.query.page).toBe('3'))
    expect(items(wrapper)).toHaveLength(3)
    expect(wrapper.text()).not.toContain('No activity yet.')
  })
})

describe('security settings: not you?', () => {
  it('leads to changing the password, and to the sessions', async () => {
    const { wrapper, router } = await mountApp(server, '/settings/security')
    await vi.waitFor(() => expect(items(wrapper)).toHaveLength(3))
    const section = wrapper.find('section[aria-labelledby=not-you-heading]')
    expect(section.find('h2').text()).toBe('Not you?')
    const links = section.findAll('a')
    expect(links.map((a) => [a.text(), a.attributes('href')])).toEqual([
      ['Change password', '/settings/password'],
      ['Review sessions', '/settings/sessions'],
    ])

    await links[0]!.trigger('click')
    await vi.waitFor(() => expect(router.currentRoute.value.name).toBe('settings-password'))
    await vi.waitFor(() => expect(wrapper.find('h2').text()).toBe('Change password'))
  })
})
