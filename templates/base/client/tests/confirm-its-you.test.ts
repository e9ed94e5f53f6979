import { enableAutoUnmount, flushPromises, type DOMWrapper, type VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { http } from '@/lib/http'
import { startServer, type TestServer } from './support/server'
import { mountApp, user } from './support/mount-app'
import { paginate, people } from './support/paginate'
import { confirmRequired, fakeStepUp } from './support/confirm-its-you'

let server: TestServer
let stepUp: ReturnType<typeof fakeStepUp>

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  stepUp = fakeStepUp(server)
  const rows = people.map((p) => ({ ...p, role: p.id === 1 ? 'admin' : 'user' }))
  server.on('GET', '/api/auth/me', { body: { user: user() } })
  server.on('GET', '/api/users', (req) => ({ body: { data: paginate(Number(req.query.page ?? 1), 10, '', rows, '/api/users') } }))
  server.on(
    'PATCH',
    '/api/users/2',
    stepUp.guard((req) => ({ body: { user: user({ id: 2, name: 'Person 2', email: 'person2@example.com', role: req.json.role }) } })),
  )
})

const sent = (method: string, path: string) => server.received.filter((r) => r.method === method && r.path === path)
const roleSelect = (wrapper: VueWrapper) => wrapper.find<HTMLSelectElement>('select[aria-label="Role of Person 2"]')
/** The "Confirm it's you" dialog, once it is open. */
const confirmDialog = (wrapper: VueWrapper) =>
  wrapper.findAll<HTMLDialogElement>('dialog').find((d) => d.element.open && d.find('h2').text() === 'Confirm it’s you')
const shown = async (wrapper: VueWrapper): Promise<DOMWrapper<HTMLDialogElement>> => {
  await vi.waitFor(() => expect(confirmDialog(wrapper)).toBeDefined())
  return confirmDialog(wrapper)!
}
const button = (within: DOMWrapper<Element>, text: string) => within.findAll('button').find((b) => b.text() === text)!

/** The users page, where an admin's role change is one of the requests the API guards. */
async function changeRole() {
  const app = await mountApp(server, '/users')
  await vi.waitFor(() => expect(app.wrapper.findAll('tbody tr')).toHaveLength(10))
  await roleSelect(app.wrapper).setValue('admin')
  return app
}

async function typePassword(dialog: DOMWrapper<HTMLDialogElement>, password: string) {
  await dialog.find('input[name=password]').setValue(password)
  await dialog.find('form').trigger('submit')
}

describe('confirm it’s you', () => {
  it('opens on a refused request, the password confirms, and the request goes again', async () => {
    const { wrapper } = await changeRole()
    const dialog = await shown(wrapper)
    expect(sent('PATCH', '/api/users/2')).toHaveLength(1)
    expect(dialog.text()).toContain('needs you to confirm it’s you')
    expect(document.activeElement).toBe(dialog.find('input[name=password]').element)

    await typePassword(dialog, 'secret-password')
    await vi.waitFor(() => expect(wrapper.find('.flash').text()).toContain('Person 2 is now an admin.'))
    expect(sent('POST', '/api/account/confirm').map((r) => r.json)).toEqual([{ password: 'secret-password' }])
    expect(sent('PATCH', '/api/users/2').map((r) => r.json)).toEqual([{ role: 'admin' }, { role: 'admin' }])
    expect(confirmDialog(wrapper)).toBeUndefined()
    expect(roleSelect(wrapper).element.value).toBe('admin')
  })

  it('says a wrong password in the field and stays open for another try', async () => {
    const { wrapper } = await changeRole()
    const dialog = await shown(wrapper)
    await typePassword(dialog, 'wrong')
    await vi.waitFor(() => expect(dialog.text()).toContain('The password is incorrect.'))
    const field = dialog.find<HTMLInputElement>('input[name=password]')
    expect(field.attributes('aria-invalid')).toBe('true')
    expect(field.element.value).toBe('')
    expect(document.activeElement).toBe(field.element)
    expect(confirmDialog(wrapper)).toBeDefined()
    expect(sent('PATCH', '/api/users/2')).toHaveLength(1)

    await typePassword(dialog, 'secret-password')
    await vi.waitFor(() => expect(sent('PATCH', '/api/users/2')).toHaveLength(2))
  })

  it('Cancel: the request fails with the refusal, which the page shows as it shows any failure', async () => {
    const { wrapper } = await changeRole()
    const dialog = await shown(wrapper)
    await button(dialog, 'Cancel').trigger('click')
    await vi.waitFor(() => expect(wrapper.find('.flash').text()).toContain('Confirm it’s you to continue.'))
    expect(confirmDialog(wrapper)).toBeUndefined()
    expect(roleSelect(wrapper).element.value).toBe('user')
    expect(sent('PATCH', '/api/users/2')).toHaveLength(1)
    expect(sent('POST', '/api/account/confirm')).toHaveLength(0)
  })

  it('asks nothing when the session was confirmed meanwhile: the request just goes again', async () => {
    // Confirmed in another tab between the refusal and the dialog's look at the session.
    server.on('PATCH', '/api/users/2', (req) => {
      if (!stepUp.confirmed) return (stepUp.confirm(), confirmRequired)
      return { body: { user: user({ id: 2, name: 'Person 2', email: 'person2@example.com', role: req.json.role }) } }
    })
    const { wrapper } = await changeRole()
    await vi.waitFor(() => expect(wrapper.find('.flash').text()).toContain('Person 2 is now an admin.'))
    expect(sent('GET', '/api/account/confirm')).toHaveLength(1)
    expect(sent('PATCH', '/api/users/2')).toHaveLength(2)
    expect(wrapper.findAll<HTMLDialogElement>('dialog').some((d) => d.element.open)).toBe(false)
  })

  it('closes when the page that asked is left', async () => {
    const { wrapper, router } = await changeRole()
    await shown(wrapper)
    await router.push('/dashboard')
    await flushPromises()
    expect(confirmDialog(wrapper)).toBeUndefined()
    expect(wrapper.find('dialog').exists()).toBe(false)
    expect(sent('PATCH', '/api/users/2')).toHaveLength(1)
  })

  it('says so when the ways to confirm cannot be had, and Cancel still ends it', async () => {
    server.on('GET', '/api/account/confirm', { status: 500, body: { message: 'Server Error.' } })
    const { wrapper } = await changeRole()
    const dialog = await shown(wrapper)
    expect(dialog.find('[role=alert]').text()).toBe('Server Error.')
    expect(dialog.find('input[name=password]').exists()).toBe(false)
    await button(dialog, 'Cancel').trigger('click')
    await vi.waitFor(() => expect(roleSelect(wrapper).element.value).toBe('user'))
  })

  it('guards the app’s plain client too: a page calling the API directly gets the answer after the dialog', async () => {
    server.on('DELETE', '/api/account/sessions', stepUp.guard(() => ({ status: 204 })))
    const { wrapper } = await mountApp(server, '/dashboard')
    const call = http.request({ url: '/api/account/sessions', method: 'delete' })
    const dialog = await shown(wrapper)
    await typePassword(dialog, 'secret-password')
    expect((await call).status).toBe(204)
    expect(sent('DELETE', '/api/account/sessions')).toHaveLength(2)
  })
})
