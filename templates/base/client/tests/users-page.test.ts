import { enableAutoUnmount, flushPromises, type DOMWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useAuthStore } from '@/stores/auth'
import { startServer, type TestServer } from './support/server'
import { mountApp, user } from './support/mount-app'
import { ignoreAborts } from './support/app'
import { paginate, people, type Person } from './support/paginate'

let server: TestServer
let rows: Person[]

enableAutoUnmount(afterEach)

beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
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
/** The one confirmation dialog that is open. */
const openDialog = (wrapper: any): DOMWrapper<HTMLDialogElement> =>
  wrapper.findAll('dialog').find((d: DOMWrapper<HTMLDialogElement>) => d.element.open)!
const button = (within: any, text: string) => within.findAll('button').find((b: any) => b.text() === text)!

describe('users page', () => {
  it('fetches the list for the route query, with the defaults', async () => {
    const { wrapper } = await mountApp(server, '/users')
    await vi.waitFor(() => expect(wrapper.findAll('tbody tr')).toHaveLength(10))
    expect(listCalls()).toEqual(['/api/users?page=1&size=10&search='])
  })

  it('loads in place: the URL keeps the route’s own query, without the defaults the API is sent', async () => {
    const { wrapper, router } = await mountApp(server, '/users?page=2')
    await vi.waitFor(() => expect(wrapper.find('tbody td.dt__num').text()).toBe('11'))
    expect(listCalls()).toEqual(['/api/users?page=2&size=10&search='])
    expect(router.currentRoute.value.fullPath).toBe('/users?page=2')
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

  it('deletes the selected users after a confirmation that states the count, then reloads the current query', async () => {
    const { wrapper } = await mountApp(server, '/users?page=2&size=10&search=')
    await vi.waitFor(() => expect(wrapper.findAll('tbody tr')).toHaveLength(10))
    const boxes = wrapper.findAll('tbody input[type=checkbox]')
    await boxes[0]!.setValue(true)
    await boxes[1]!.setValue(true)
    await wrapper.find('button.dt__remove').trigger('click')
    await flushPromises()
    const dialog = openDialog(wrapper)
    expect(dialog.find('h2').text()).toBe('Delete 2 users?')
    expect(server.received.some((r) => r.method === 'DELETE')).toBe(false)
    await button(dialog, 'Delete 2 users').trigger('click')
    await vi.waitFor(() => expect(wrapper.text()).toContain('Deleted 2 users.'))
    expect(dialog.element.open).toBe(false)
    const del = server.received.find((r) => r.method === 'DELETE')!
    expect(del.json).toEqual({ ids: [11, 12] })
    expect(listCalls().at(-1)).toBe('/api/users?page=2&size=10&search=')
    await vi.waitFor(() => expect(wrapper.find('tbody td:nth-child(3)').text()).toContain('Person 13'))
    expect(wrapper.find('button.dt__remove').text()).toBe('Delete')
  })

  it('sends nothing when the deletion is cancelled', async () => {
    const { wrapper } = await mountApp(server, '/users')
    await vi.waitFor(() => expect(wrapper.findAll('tbody tr')).toHaveLength(10))
    await wrapper.find('tbody input[type=checkbox]').setValue(true)
    await wrapper.find('button.dt__remove').trigger('click')
    await flushPromises()
    const dialog = openDialog(wrapper)
    await button(dialog, 'Cancel').trigger('click')
    await flushPromises()
    expect(dialog.element.open).toBe(false)
    expect(server.received.some((r) => r.method === 'DELETE')).toBe(false)
  })

  it('shows the API’s refusal to delete yourself', async () => {
    server.on('DELETE', '/api/users', { status: 422, body: { message: 'Invalid.', errors: { ids: ['You cannot delete your own account.'] } } })
    const { wrapper } = await mountApp(server, '/users')
    await vi.waitFor(() => expect(wrapper.findAll('tbody tr')).toHaveLength(10))
    await wrapper.find('tbody input[type=checkbox]').setValue(true)
    await wrapper.find('button.dt__remove').trigger('click')
    await flushPromises()
    await button(openDialog(wrapper), 'Delete 1 user').trigger('click')
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
    const dialog = openDialog(wrapper)
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
    const dialog = openDialog(wrapper)
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
    await openDialog(wrapper).findAll('button').find((b) => b.text() === 'Sign out everywhere')!.trigger('click')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/login'))
    expect(useAuthStore(pinia).user).toBeNull()
    expect(wrapper.text()).toContain('You have been signed out everywhere.')
  })
})

describe('users page: sort, filters and deleting all matching', () => {
  // 30 users: every third an admin, the even ones verified; Ada (id 1) is signed in.
  interface Member extends Person {
    role: 'admin' | 'user'
    emailVerifiedAt: string | null
    createdAt: string
  }
  let members: Member[]
  const deletes = () => server.received.filter((r) => r.method === 'DELETE' && r.path === '/api/users')

  beforeEach(() => {
    members = people.slice(0, 30).map((p) => ({
      ...p,
      role: p.id % 3 === 1 ? 'admin' : 'user',
      emailVerifiedAt: p.id % 2 === 0 ? '2024-01-01T00:00:00.000Z' : null,
      createdAt: `2024-01-${String(p.id).padStart(2, '0')}T00:00:00.000Z`,
    }))
    const matching = (search: string, filter: Record<string, unknown>) =>
      members.filter(
        (m) =>
          (!search || `${m.name} ${m.email}`.toLowerCase().includes(search.toLowerCase())) &&
          (!filter.role || m.role === filter.role) &&
          (filter.verified === undefined || String(!!m.emailVerifiedAt) === String(filter.verified)),
      )
    server.on('GET', '/api/users', (req) => {
      const found = matching(req.query.search ?? '', { role: req.query['filter[role]'], verified: req.query['filter[verified]'] })
      const sort = req.query.sort ?? ''
      const key = sort.replace(/^-/, '') as keyof Member
      if (key) found.sort((a, b) => String(a[key]).localeCompare(String(b[key]), 'en', { numeric: true }) * (sort.startsWith('-') ? -1 : 1))
      const size = Number(req.query.size ?? 10)
      return { body: { data: paginate(Number(req.query.page ?? 1), size, '', found as Person[], '/api/users') } }
    })
    server.on('DELETE', '/api/users', (req) => {
      const body = req.json
      const doomed = body.all ? matching(body.search, body.filter).filter((m) => m.id !== 1 && !body.except.includes(m.id)) : members.filter((m) => body.ids.includes(m.id))
      members = members.filter((m) => !doomed.includes(m))
      return { body: { deleted: doomed.length } }
    })
  })

  const names = (wrapper: any) => wrapper.findAll('tbody td:nth-child(3)').map((td: any) => td.text().replace('you', '').trim())
  const sortButton = (wrapper: any, label: string) => wrapper.findAll('thead th button').find((b: any) => b.text().startsWith(label))

  it('sorts by name, e-mail or created date through the route, one fetch per click', async () => {
    const { wrapper, router } = await mountApp(server, '/users')
    await vi.waitFor(() => expect(wrapper.findAll('tbody tr')).toHaveLength(10))
    expect(wrapper.findAll('thead th button').map((b) => b.text().replace(/[▲▼↕]/g, ''))).toEqual(['Name', 'E-mail', 'Created'])
    await sortButton(wrapper, 'Created').trigger('click')
    await vi.waitFor(() => expect(router.currentRoute.value.query.sort).toBe('createdAt'))
    // The second click once the first one's fetch reached the server: a fetch aborted before it
    // is sent (the visit cancels the page it replaces) never arrives there.
    await vi.waitFor(() => expect(listCalls()).toContain('/api/users?page=1&size=10&search=&sort=createdAt'))
    await sortButton(wrapper, 'Created').trigger('click')
    await vi.waitFor(() => expect(names(wrapper)[0]).toBe('Person 30'))
    expect(router.currentRoute.value.query.sort).toBe('-createdAt')
    expect(wrapper.findAll('thead th').find((th) => th.text().startsWith('Created'))!.attributes('aria-sort')).toBe('descending')
    expect(listCalls()).toEqual([
      '/api/users?page=1&size=10&search=',
      '/api/users?page=1&size=10&search=&sort=createdAt',
      '/api/users?page=1&size=10&search=&sort=-createdAt',
    ])
  })

  it('filters by role and by verified, as filter[key] in the route and the API query', async () => {
    const { wrapper, router } = await mountApp(server, '/users?page=2&size=10&search=')
    await vi.waitFor(() => expect(wrapper.findAll('tbody tr')).toHaveLength(10))
    await wrapper.find('.dt__bar select').setValue('admin')
    await vi.waitFor(() => expect(router.currentRoute.value.query).toEqual({ page: '1', size: '10', search: '', 'filter[role]': 'admin' }))
    await vi.waitFor(() => expect(wrapper.find('.dt__info').text()).toBe('Showing 1–10 of 10'))
    const [role, verified] = wrapper.findAll('.dt__bar select')
    await verified!.setValue('true')
    await vi.waitFor(() => expect(wrapper.find('.dt__info').text()).toBe('Showing 1–5 of 5'))
    expect(names(wrapper)).toEqual(['Person 4', 'Person 10', 'Person 16', 'Person 22', 'Person 28'])
    expect(listCalls().at(-1)).toBe('/api/users?page=1&size=10&search=&filter%5Brole%5D=admin&filter%5Bverified%5D=true')
    expect((role!.element as HTMLSelectElement).value).toBe('admin')
  })

  it('deletes all matching after a dialog that states the count, then the emptied page clamps', async () => {
    const { wrapper, router } = await mountApp(server, '/users?page=2&size=10&search=&filter[role]=user')
    await vi.waitFor(() => expect(wrapper.find('.dt__info').text()).toBe('Showing 11–20 of 20'))
    await wrapper.find('thead input').setValue(true)
    await button(wrapper.find('.dt__matching'), 'Select all 20 matching').trigger('click')
    // Keep two of them.
    await wrapper.findAll('tbody input[type=checkbox]')[0]!.setValue(false)
    await wrapper.findAll('tbody input[type=checkbox]')[1]!.setValue(false)
    await wrapper.find('button.dt__remove').trigger('click')
    await flushPromises()
    const dialog = openDialog(wrapper)
    expect(dialog.find('h2').text()).toBe('Delete 18 users?')
    expect(dialog.text()).toContain('except the 2 you unticked')
    await button(dialog, 'Delete 18 users').trigger('click')
    await vi.waitFor(() => expect(wrapper.text()).toContain('Deleted 18 users.'))
    expect(deletes()[0]!.json).toEqual({ all: true, search: '', filter: { role: 'user' }, except: [17, 18] })
    // Two users are left: page 2 no longer exists.
    await vi.waitFor(() => expect(router.currentRoute.value.query.page).toBe('1'))
    await vi.waitFor(() => expect(names(wrapper)).toEqual(['Person 17', 'Person 18']))
    expect(router.currentRoute.value.query).toEqual({ page: '1', size: '10', search: '', 'filter[role]': 'user' })
    expect(wrapper.find('button.dt__remove').text()).toBe('Delete')
  })

  it('never applies a stale list: a slow earlier answer loses to the newer one, even unaborted', async () => {
    ignoreAborts()
    const { wrapper, router } = await mountApp(server, '/users')
    await vi.waitFor(() => expect(wrapper.findAll('tbody tr')).toHaveLength(10))
    server.on('GET', '/api/users', (req) => {
      const page = Number(req.query.page ?? 1)
      return { delay: page === 2 ? 200 : 0, body: { data: paginate(page, 10, '', people.slice(0, 30), '/api/users') } }
    })
    await router.push('/users?page=2&size=10&search=')
    await router.push('/users?page=3&size=10&search=')
    await vi.waitFor(() => expect(wrapper.find('tbody td.dt__num').text()).toBe('21'))
    await vi.waitFor(() => expect(server.received.filter((r) => r.query.page === '2')).toHaveLength(1))
    await new Promise((r) => setTimeout(r, 250))
    expect(wrapper.find('tbody td.dt__num').text()).toBe('21')
  })
})
