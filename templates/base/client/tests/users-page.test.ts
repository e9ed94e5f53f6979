import { flushPromises } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useAuthStore } from '@/stores/auth'
import { startServer, type TestServer } from './support/server'
import { mountApp, user } from './support/mount-app'
import { paginate, people, type Person } from './support/paginate'

let server: TestServer
let rows: Person[]

beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
afterEach(() => vi.unstubAllGlobals())
beforeEach(() => {
  server.reset()
  rows = [...people]
  server.on('GET', '/api/auth/me', { body: { user: user() } })
  server.on('GET', '/api/users', (req) => ({
    body: { data: paginate(Number(req.query.page ?? 1), Number(req.query.size ?? 10), req.query.search ?? '', rows, '/api/users') },
  }))
  server.on('DELETE', '/api/users', (req) => {
    const ids: number[] = req.json.ids
    rows = rows.filter((r) => !ids.includes(r.id))
    return { body: { deleted: ids.length } }
  })
})

const listCalls = () => server.received.filter((r) => r.path === '/api/users' && r.method === 'GET').map((r) => r.url)

describe('users page', () => {
  it('fetches the list for the route query, with the spec defaults', async () => {
    const { wrapper } = await mountApp(server, '/users')
    await vi.waitFor(() => expect(wrapper.findAll('tbody tr')).toHaveLength(10))
    expect(listCalls()).toEqual(['/api/users?page=1&size=10&search='])
  })

  it('each table action is a single fetch, through the route query', async () => {
    const { wrapper, router } = await mountApp(server, '/users')
    await vi.waitFor(() => expect(wrapper.findAll('tbody tr')).toHaveLength(10))
    await wrapper.find('[aria-label="Page 2"]').trigger('click')
    await vi.waitFor(() => expect(wrapper.find('tbody td.dt__num').text()).toBe('11'))
    expect(router.currentRoute.value.fullPath).toBe('/users?page=2&size=10&search=')
    await wrapper.find('.dt__size select').setValue('25')
    await vi.waitFor(() => expect(wrapper.findAll('tbody tr')).toHaveLength(25))
    expect(listCalls()).toEqual([
      '/api/users?page=1&size=10&search=',
      '/api/users?page=2&size=10&search=',
      '/api/users?page=1&size=25&search=',
    ])
  })

  it('back and forward fetch the query of that history entry', async () => {
    const { wrapper, router } = await mountApp(server, '/users?page=3&size=5&search=')
    await vi.waitFor(() => expect(wrapper.find('tbody td.dt__num').text()).toBe('11'))
    await router.push('/users?page=4&size=5&search=')
    await vi.waitFor(() => expect(wrapper.find('tbody td.dt__num').text()).toBe('16'))
    router.back()
    await vi.waitFor(() => expect(wrapper.find('tbody td.dt__num').text()).toBe('11'))
    expect(listCalls().at(-1)).toBe('/api/users?page=3&size=5&search=')
  })

  it('deletes the selected users, then reloads the current query', async () => {
    vi.stubGlobal('confirm', () => true)
    const { wrapper } = await mountApp(server, '/users?page=2&size=10&search=')
    await vi.waitFor(() => expect(wrapper.findAll('tbody tr')).toHaveLength(10))
    const boxes = wrapper.findAll('tbody input[type=checkbox]')
    await boxes[0]!.setValue(true)
    await boxes[1]!.setValue(true)
    await wrapper.find('button.dt__remove').trigger('click')
    await vi.waitFor(() => expect(wrapper.text()).toContain('Deleted 2 users.'))
    const del = server.received.find((r) => r.method === 'DELETE')!
    expect(del.json).toEqual({ ids: [11, 12] })
    expect(listCalls().at(-1)).toBe('/api/users?page=2&size=10&search=')
    await vi.waitFor(() => expect(wrapper.find('tbody td:nth-child(3)').text()).toContain('Person 13'))
    expect(wrapper.find('button.dt__remove').text()).toBe('Delete')
  })

  it('sends nothing when the deletion is not confirmed', async () => {
    vi.stubGlobal('confirm', () => false)
    const { wrapper } = await mountApp(server, '/users')
    await vi.waitFor(() => expect(wrapper.findAll('tbody tr')).toHaveLength(10))
    await wrapper.find('tbody input[type=checkbox]').setValue(true)
    await wrapper.find('button.dt__remove').trigger('click')
    expect(server.received.some((r) => r.method === 'DELETE')).toBe(false)
  })

  it('shows the API’s refusal to delete yourself', async () => {
    vi.stubGlobal('confirm', () => true)
    server.on('DELETE', '/api/users', { status: 422, body: { message: 'Invalid.', errors: { ids: ['You cannot delete your own account.'] } } })
    const { wrapper } = await mountApp(server, '/users')
    await vi.waitFor(() => expect(wrapper.findAll('tbody tr')).toHaveLength(10))
    await wrapper.find('tbody input[type=checkbox]').setValue(true)
    await wrapper.find('button.dt__remove').trigger('click')
    await vi.waitFor(() => expect(wrapper.text()).toContain('You cannot delete your own account.'))
  })
})

describe('users page: per-row actions', () => {
  // Ada (id 1) is the signed-in admin; everyone else is a user.
  const withRoles = () => people.map((p) => ({ ...p, role: p.id === 1 ? 'admin' : 'user' }))

  beforeEach(() => {
    const roles = withRoles()
    server.on('GET', '/api/users', (req) => ({
      body: { data: paginate(Number(req.query.page ?? 1), Number(req.query.size ?? 10), req.query.search ?? '', roles, '/api/users') },
    }))
    server.on('PATCH', '/api/users/2', (req) => ({ body: { user: user({ id: 2, name: 'Person 2', email: 'person2@example.com', role: req.json.role }) } }))
    server.on('DELETE', '/api/users/2/sessions', { status: 204 })
  })

  const roleSelect = (wrapper: any, name: string) => wrapper.find(`select[aria-label="Role of ${name}"]`)
  const signOutButton = (wrapper: any, name: string) => wrapper.find(`button[aria-label="Sign out everywhere: ${name}"]`)

  async function mountUsers() {
    const app = await mountApp(server, '/users')
    await vi.waitFor(() => expect(app.wrapper.findAll('tbody tr')).toHaveLength(10))
    return app
  }

  it('shows each user’s role in a select and changes it with PATCH, in place', async () => {
    const { wrapper } = await mountUsers()
    expect((roleSelect(wrapper, 'Person 1').element as HTMLSelectElement).value).toBe('admin')
    expect((roleSelect(wrapper, 'Person 2').element as HTMLSelectElement).value).toBe('user')
    const lists = listCalls().length
    await roleSelect(wrapper, 'Person 2').setValue('admin')
    await vi.waitFor(() => expect(wrapper.text()).toContain('Person 2 is now an admin.'))
    const patch = server.received.find((r) => r.method === 'PATCH')!
    expect([patch.url, patch.json]).toEqual(['/api/users/2', { role: 'admin' }])
    expect((roleSelect(wrapper, 'Person 2').element as HTMLSelectElement).value).toBe('admin')
    expect(listCalls()).toHaveLength(lists)
  })

  it('shows a refused change and puts the select back', async () => {
    server.on('PATCH', '/api/users/1', { status: 422, body: { message: 'Invalid.', errors: { role: ['You cannot remove your own admin role.'] } } })
    const { wrapper } = await mountUsers()
    await roleSelect(wrapper, 'Person 1').setValue('user')
    await vi.waitFor(() => expect(wrapper.text()).toContain('You cannot remove your own admin role.'))
    expect((roleSelect(wrapper, 'Person 1').element as HTMLSelectElement).value).toBe('admin')
  })

  it('shows the message of a failure without field errors', async () => {
    server.on('PATCH', '/api/users/2', { status: 404, body: { message: 'Not found.' } })
    const { wrapper } = await mountUsers()
    await roleSelect(wrapper, 'Person 2').setValue('admin')
    await vi.waitFor(() => expect(wrapper.find('.flash').text()).toContain('Not found.'))
    expect((roleSelect(wrapper, 'Person 2').element as HTMLSelectElement).value).toBe('user')
  })

  it('signs a user out everywhere after a confirmation in a dialog', async () => {
    const { wrapper } = await mountUsers()
    const opener = signOutButton(wrapper, 'Person 2')
    opener.element.focus()
    await opener.trigger('click')
    await flushPromises()
    const dialog = wrapper.find('dialog')
    expect((dialog.element as HTMLDialogElement).open).toBe(true)
    expect(document.getElementById(dialog.attributes('aria-labelledby')!)?.textContent).toBe('Sign out Person 2 everywhere?')
    expect(dialog.text()).toContain('person2@example.com')
    expect(server.received.some((r) => r.method === 'DELETE')).toBe(false)

    await dialog.findAll('button').find((b) => b.text() === 'Sign out everywhere')!.trigger('click')
    await vi.waitFor(() => expect(wrapper.text()).toContain('Person 2 has been signed out everywhere.'))
    const del = server.received.find((r) => r.method === 'DELETE')!
    expect(del.url).toBe('/api/users/2/sessions')
    expect((dialog.element as HTMLDialogElement).open).toBe(false)
    expect(document.activeElement).toBe(opener.element)
  })

  it('sends nothing when the dialog is cancelled or escaped', async () => {
    const { wrapper } = await mountUsers()
    await signOutButton(wrapper, 'Person 3').trigger('click')
    await flushPromises()
    const dialog = wrapper.find('dialog')
    await dialog.findAll('button').find((b) => b.text() === 'Cancel')!.trigger('click')
    await flushPromises()
    expect((dialog.element as HTMLDialogElement).open).toBe(false)
    await signOutButton(wrapper, 'Person 3').trigger('click')
    await flushPromises()
    await dialog.trigger('keydown', { key: 'Escape' })
    await flushPromises()
    expect((dialog.element as HTMLDialogElement).open).toBe(false)
    expect(server.received.some((r) => r.method === 'DELETE')).toBe(false)
  })

  it('signing yourself out everywhere ends this browser’s session too', async () => {
    server.on('DELETE', '/api/users/1/sessions', { status: 204 })
    const { wrapper, router, pinia } = await mountUsers()
    await signOutButton(wrapper, 'Person 1').trigger('click')
    await flushPromises()
    await wrapper.find('dialog').findAll('button').find((b) => b.text() === 'Sign out everywhere')!.trigger('click')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/login'))
    expect(useAuthStore(pinia).user).toBeNull()
    expect(wrapper.text()).toContain('You have been signed out everywhere.')
  })
})
