import { enableAutoUnmount, flushPromises, type DOMWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { startServer, type TestServer } from './support/server'
import { mountApp, user } from './support/mount-app'
import { paginate, people } from './support/paginate'

let server: TestServer
let assigned: string[]

enableAutoUnmount(afterEach)

beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

const notSuspended = { suspendedAt: null, suspendedUntil: null, suspensionReason: null }
// Ada (id 1) is the signed-in admin, Person 3 an admin too, Person 4 suspended; everyone else a user.
const rows = () =>
  people.map((p) => ({
    ...user({ ...p, role: p.id === 1 || p.id === 3 ? 'admin' : 'user' }),
    ...(p.id === 4 ? { suspendedAt: '2026-01-01T00:00:00.000Z', suspendedUntil: '2099-05-17T09:30:00.000Z', suspensionReason: 'Spam' } : notSuspended),
  }))

beforeEach(() => {
  server.reset()
  assigned = []
  // A full load of another page is the browser's: here it is only recorded.
  vi.spyOn(window.location, 'assign').mockImplementation((url: string | URL) => void assigned.push(String(url)))
  server.on('GET', '/api/auth/me', { body: { user: user(), impersonator: null } })
  server.on('GET', '/api/users', (req) => ({ body: { data: paginate(Number(req.query.page ?? 1), Number(req.query.size ?? 10), '', rows(), '/api/users') } }))
})
afterEach(() => vi.restoreAllMocks())

const openDialog = (wrapper: any): DOMWrapper<HTMLDialogElement> => wrapper.findAll('dialog').find((d: DOMWrapper<HTMLDialogElement>) => d.element.open)!
const byLabel = (wrapper: any, label: string) => wrapper.find(`button[aria-label="${label}"]`)

async function mountUsers(path = '/users') {
  const app = await mountApp(server, path)
  await vi.waitFor(() => expect(app.wrapper.findAll('tbody tr')).toHaveLength(10))
  return app
}

describe('users page: suspension', () => {
  it('shows who is suspended and until when, and filters on it through the route query', async () => {
    const { wrapper, router } = await mountUsers()
    const row = wrapper.findAll('tbody tr')[3]!
    expect(row.text()).toContain('Suspended until')
    expect(row.find('.badge--danger').attributes('title')).toBe('Spam')
    expect(wrapper.findAll('tbody tr')[1]!.text()).toContain('Active')
    await wrapper.find('select[aria-label="Status"]').setValue('true')
    await vi.waitFor(() => expect(router.currentRoute.value.query['filter[suspended]']).toBe('true'))
    await vi.waitFor(() => expect(server.received.some((r) => r.path === '/api/users' && r.url.includes('filter%5Bsuspended%5D=true'))).toBe(true))
  })

  it('suspends with a reason and an optional end, in a dialog, and shows the answer in place', async () => {
    server.on('POST', '/api/users/2/suspension', (req) => ({
      body: { user: { ...user({ id: 2, name: 'Person 2', email: 'person2@example.com', role: 'user' }), suspendedAt: '2026-01-01T00:00:00.000Z', suspendedUntil: null, suspensionReason: req.json.reason } },
    }))
    const { wrapper } = await mountUsers()
    expect(byLabel(wrapper, 'Suspend: Ada Admin').exists()).toBe(false)
    await byLabel(wrapper, 'Suspend: Person 2').trigger('click')
    await flushPromises()
    const dialog = openDialog(wrapper)
    expect(document.getElementById(dialog.attributes('aria-labelledby')!)?.textContent).toBe('Suspend Person 2?')
    expect(dialog.text()).toContain('person2@example.com')
    const [reason, until] = dialog.findAll('input')
    await reason!.setValue('Spam in the forum')
    await until!.setValue('2099-05-17T09:30')
    await dialog.findAll('button').find((b) => b.text() === 'Suspend')!.trigger('click')
    await vi.waitFor(() => expect(wrapper.text()).toContain('Person 2 is suspended.'))
    const post = server.received.find((r) => r.method === 'POST')!
    expect(post.json).toEqual({ reason: 'Spam in the forum', until: new Date('2099-05-17T09:30').toISOString() })
    expect(wrapper.findAll('tbody tr')[1]!.text()).toContain('Suspended')
    expect(byLabel(wrapper, 'Lift suspension: Person 2').exists()).toBe(true)
  })

  it("keeps the dialog open with the field's error on a 422", async () => {
    server.on('POST', '/api/users/2/suspension', { status: 422, body: { message: 'Invalid.', errors: { reason: ['The reason field is required.'] } } })
    const { wrapper } = await mountUsers()
    await byLabel(wrapper, 'Suspend: Person 2').trigger('click')
    await flushPromises()
    const dialog = openDialog(wrapper)
    await dialog.findAll('button').find((b) => b.text() === 'Suspend')!.trigger('click')
    await vi.waitFor(() => expect(dialog.text()).toContain('The reason field is required.'))
    expect((dialog.element as HTMLDialogElement).open).toBe(true)
  })

  it('lifts a suspension with DELETE', async () => {
    server.on('DELETE', '/api/users/4/suspension', { body: { user: { ...user({ id: 4, name: 'Person 4', email: 'person4@example.com', role: 'user' }), ...notSuspended } } })
    const { wrapper } = await mountUsers()
    await byLabel(wrapper, 'Lift suspension: Person 4').trigger('click')
    await vi.waitFor(() => expect(wrapper.text()).toContain('Person 4 can sign in again.'))
    expect(wrapper.findAll('tbody tr')[3]!.text()).toContain('Active')
  })
})

describe('users page: impersonation', () => {
  it('offers it for users only (not admins, oneself or the suspended), and loads the app as the user', async () => {
    server.on('POST', '/api/users/2/impersonation', { body: { user: user({ id: 2, name: 'Person 2', role: 'user' }) } })
    const { wrapper } = await mountUsers()
    for (const name of ['Ada Admin', 'Person 3', 'Person 4']) expect(byLabel(wrapper, `Sign in as ${name}`).exists(), name).toBe(false)
    await byLabel(wrapper, 'Sign in as Person 2').trigger('click')
    await flushPromises()
    const dialog = openDialog(wrapper)
    expect(document.getElementById(dialog.attributes('aria-labelledby')!)?.textContent).toBe('Sign in as Person 2?')
    await dialog.findAll('button').find((b) => b.text() === 'Sign in as')!.trigger('click')
    await vi.waitFor(() => expect(assigned).toEqual(['/dashboard']))
    expect(server.received.find((r) => r.method === 'POST')!.url).toBe('/api/users/2/impersonation')
  })
})

describe('the impersonation banner', () => {
  it('shows on every page while an admin is signed in as someone, and stop returns to the admin', async () => {
    server.on('GET', '/api/auth/me', { body: { user: user({ id: 2, name: 'Person 2', role: 'user' }), impersonator: { id: 1, name: 'Ada Admin' } } })
    server.on('DELETE', '/api/auth/impersonation', { body: { user: user() } })
    const { wrapper } = await mountApp(server, '/dashboard')
    await vi.waitFor(() => expect(wrapper.find('[role="region"]').exists()).toBe(true))
    const banner = wrapper.find('[role="region"]')
    expect(banner.attributes('aria-label')).toBe('Impersonation')
    expect(banner.text()).toBe('You are signed in as Person 2 — stop')
    // The way out is the banner's, not a sign-out.
    expect(wrapper.findAll('button').some((b) => b.text() === 'Log out')).toBe(false)
    await banner.find('button').trigger('click')
    await vi.waitFor(() => expect(assigned).toEqual(['/users']))
    expect(server.received.some((r) => r.method === 'DELETE' && r.url === '/api/auth/impersonation')).toBe(true)
  })

  it('is not there for anyone else', async () => {
    const { wrapper } = await mountApp(server, '/dashboard')
    await flushPromises()
    expect(wrapper.find('.impersonation').exists()).toBe(false)
    expect(wrapper.findAll('button').some((b) => b.text() === 'Log out')).toBe(true)
  })
})
