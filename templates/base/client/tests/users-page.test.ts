import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
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
    await wrapper.find('select').setValue('25')
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
