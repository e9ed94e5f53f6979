import { enableAutoUnmount, flushPromises } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AccountSession } from '@/types'
import { startServer, type TestServer } from './support/server'
import { mountApp, unauthenticated, user } from './support/mount-app'
import { fakeStepUp } from './support/confirm-its-you'

let server: TestServer
let sessions: AccountSession[]

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString()
// In the runtime's own language, as the page writes it.
const ago = (n: number, unit: Intl.RelativeTimeFormatUnit) => new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(-n, unit)
const session = (overrides: Partial<AccountSession>): AccountSession => ({
  id: 'this',
  current: false,
  device: 'Chrome on Linux',
  ip: '203.0.113.7',
  createdAt: minutesAgo(600),
  lastUsedAt: minutesAgo(1),
  expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  remember: false,
  ...overrides,
})

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  sessions = [
    session({ id: 'this', current: true, device: 'Firefox on macOS' }),
    session({ id: 'phone', device: 'Safari on iOS', ip: null, lastUsedAt: minutesAgo(5), remember: true }),
    session({ id: 'work', device: 'Chrome on Windows', lastUsedAt: minutesAgo(3 * 60) }),
  ]
  server.on('GET', '/api/auth/me', { body: { user: user({ name: 'Ann', role: 'user' }) } })
  server.on('GET', '/api/account/sessions', () => ({ body: { data: sessions } }))
  server.on('DELETE', '/api/account/sessions', (req) => {
    if (req.json?.password !== 'secret-password') {
      return { status: 422, body: { message: 'Invalid.', errors: { password: ['The password is incorrect.'] } } }
    }
    sessions = sessions.filter((s) => s.current)
    return { status: 204 }
  })
})

const lists = () => server.received.filter((r) => r.method === 'GET' && r.path === '/api/account/sessions')
const deletes = () => server.received.filter((r) => r.method === 'DELETE')
const items = (wrapper: any) => wrapper.findAll('.session-list > li')
const button = (wrapper: any, text: string) => wrapper.findAll('button').find((b: any) => b.text() === text)

async function mountSessions() {
  const app = await mountApp(server, '/settings/sessions')
  await vi.waitFor(() => expect(items(app.wrapper)).toHaveLength(3))
  return app
}

describe('sessions settings: the list', () => {
  it('lists every session, this device first and marked, with what is known of each', async () => {
    const { wrapper } = await mountSessions()
    expect(document.title.startsWith('Sessions')).toBe(true)
    const [mine, phone, work] = items(wrapper)
    expect(mine.text()).toContain('Firefox on macOS')
    expect(mine.text()).toContain('This device')
    expect(mine.text()).toContain('Active now')
    expect(mine.find('button').exists()).toBe(false)

    expect(phone.text()).toContain('Safari on iOS')
    expect(phone.text()).toContain('IP address unknown')
    expect(phone.text()).toContain(ago(5, 'minute'))
    expect(phone.text()).toContain('Remembered')
    expect(phone.text()).not.toContain('This device')
    expect(phone.find('time').attributes('datetime')).toBe(sessions[1]!.lastUsedAt)

    expect(work.text()).toContain('203.0.113.7')
    expect(work.text()).toContain(ago(3, 'hour'))
    expect(work.find('button').text()).toBe('Sign out')
  })

  it("marks an admin's session as this user (impersonation), which can be signed out like any", async () => {
    sessions[2] = session({ id: 'work', device: 'Chrome on Windows', impersonatorId: 7 })
    const { wrapper } = await mountSessions()
    const [mine, phone, work] = items(wrapper)
    expect(work.find('.badge--danger').text()).toBe('An admin signed in as you')
    expect(work.find('button').text()).toBe('Sign out')
    for (const item of [mine, phone]) expect(item.find('.badge--danger').exists()).toBe(false)
  })

  it('signs out one session, then shows the list again', async () => {
    server.on('DELETE', '/api/account/sessions/phone', () => {
      sessions = sessions.filter((s) => s.id !== 'phone')
      return { status: 204 }
    })
    const { wrapper } = await mountSessions()
    await items(wrapper)[1].find('button').trigger('click')
    await vi.waitFor(() => expect(items(wrapper)).toHaveLength(2))
    expect(deletes().map((r) => r.url)).toEqual(['/api/account/sessions/phone'])
    expect(lists()).toHaveLength(2)
    expect(wrapper.find('.session-list').text()).not.toContain('Safari on iOS')
    expect(wrapper.find('[role=status]').text()).toBe('Signed out Safari on iOS.')
  })

  it('signing out one session asks to confirm it’s you first (step-up), then goes again', async () => {
    const stepUp = fakeStepUp(server)
    server.on(
      'DELETE',
      '/api/account/sessions/phone',
      stepUp.guard(() => ((sessions = sessions.filter((s) => s.id !== 'phone')), { status: 204 })),
    )
    const { wrapper } = await mountSessions()
    await items(wrapper)[1].find('button').trigger('click')
    const confirmDialog = () => wrapper.findAll<HTMLDialogElement>('dialog').find((d) => d.element.open && d.find('h2').text() === 'Confirm it’s you')
    await vi.waitFor(() => expect(confirmDialog()).toBeDefined())
    await confirmDialog()!.find('input[name=password]').setValue('secret-password')
    await confirmDialog()!.find('form').trigger('submit')
    await vi.waitFor(() => expect(items(wrapper)).toHaveLength(2))
    expect(deletes().map((r) => r.url)).toEqual(['/api/account/sessions/phone', '/api/account/sessions/phone'])
    expect(wrapper.find('[role=status]').text()).toBe('Signed out Safari on iOS.')
    expect(confirmDialog()).toBeUndefined()
  })

  it('says so when the session had ended already, and shows what is left', async () => {
    server.on('DELETE', '/api/account/sessions/work', () => {
      sessions = sessions.filter((s) => s.id !== 'work')
      return { status: 404, body: { message: 'Not found.' } }
    })
    const { wrapper } = await mountSessions()
    await items(wrapper)[2].find('button').trigger('click')
    await vi.waitFor(() => expect(items(wrapper)).toHaveLength(2))
    expect(wrapper.find('[role=alert]').text()).toBe('Not found.')
  })

  it('sends a browser whose own session ended to /login', async () => {
    server.on('GET', '/api/account/sessions', unauthenticated)
    const { router } = await mountApp(server, '/settings/sessions')
    await vi.waitFor(() => expect(router.currentRoute.value.name).toBe('login'))
    expect(router.currentRoute.value.query.redirect).toBe('/settings/sessions')
  })

  it('cannot sign out others when there are none', async () => {
    sessions = [sessions[0]!]
    const { wrapper } = await mountApp(server, '/settings/sessions')
    await vi.waitFor(() => expect(items(wrapper)).toHaveLength(1))
    const opener = button(wrapper, 'Sign out all other sessions')
    expect(opener.attributes('aria-disabled')).toBe('true')
    await opener.trigger('click')
    await flushPromises()
    expect((wrapper.find('dialog').element as HTMLDialogElement).open).toBe(false)
  })
})

describe('sessions settings: sign out all others', () => {
  async function openDialog() {
    const app = await mountSessions()
    const opener = button(app.wrapper, 'Sign out all other sessions')
    opener.element.focus()
    await opener.trigger('click')
    await flushPromises()
    return { ...app, opener: opener.element as HTMLElement, dialog: () => app.wrapper.find('dialog') }
  }

  it('asks for the password in a labelled modal dialog, focused on the field', async () => {
    const { dialog } = await openDialog()
    expect((dialog().element as HTMLDialogElement).open).toBe(true)
    expect(dialog().attributes('role')).toBe('dialog')
    expect(dialog().attributes('aria-modal')).toBe('true')
    expect(document.getElementById(dialog().attributes('aria-labelledby')!)?.textContent).toBe('Sign out all other sessions')
    await vi.waitFor(() => expect(document.activeElement).toBe(dialog().find('input[name=password]').element))
    expect(dialog().find('label').text()).toBe('Password')
  })

  it('sends the password, closes, gives focus back and shows the list again', async () => {
    const { wrapper, dialog, opener } = await openDialog()
    await dialog().find('input[name=password]').setValue('secret-password')
    await dialog().find('form').trigger('submit')
    await vi.waitFor(() => expect(items(wrapper)).toHaveLength(1))
    const del = deletes()[0]!
    expect([del.method, del.url, del.json]).toEqual(['DELETE', '/api/account/sessions', { password: 'secret-password' }])
    expect((dialog().element as HTMLDialogElement).open).toBe(false)
    expect(wrapper.text()).toContain('Every other session has been signed out.')
    // Nobody else left: the button stays focusable, only marked disabled.
    expect(button(wrapper, 'Sign out all other sessions').attributes('aria-disabled')).toBe('true')
    expect(document.activeElement).toBe(opener)
  })

  it('shows a wrong password in the dialog, which stays open', async () => {
    const { wrapper, dialog } = await openDialog()
    await dialog().find('input[name=password]').setValue('wrong')
    await dialog().find('form').trigger('submit')
    await vi.waitFor(() => expect(dialog().text()).toContain('The password is incorrect.'))
    expect(dialog().find('input[name=password]').attributes('aria-invalid')).toBe('true')
    expect(dialog().find<HTMLInputElement>('input[name=password]').element.value).toBe('')
    expect((dialog().element as HTMLDialogElement).open).toBe(true)
    expect(items(wrapper)).toHaveLength(3)
  })

  it('disables its buttons while the request runs and cannot be dismissed then', async () => {
    server.on('DELETE', '/api/account/sessions', { status: 204, delay: 200 })
    const { dialog } = await openDialog()
    await dialog().find('input[name=password]').setValue('secret-password')
    await dialog().find('form').trigger('submit')
    await vi.waitFor(() => expect(dialog().find('button[type=submit]').attributes('disabled')).toBeDefined())
    expect(button(dialog(), 'Cancel').attributes('disabled')).toBeDefined()
    await dialog().trigger('keydown', { key: 'Escape' })
    expect((dialog().element as HTMLDialogElement).open).toBe(true)
    await vi.waitFor(() => expect((dialog().element as HTMLDialogElement).open).toBe(false))
  })

  it('shows a throttled answer in the dialog', async () => {
    server.on('DELETE', '/api/account/sessions', { status: 429, body: { message: 'Too many attempts. Try again in 60 seconds.' } })
    const { dialog } = await openDialog()
    await dialog().find('input[name=password]').setValue('secret-password')
    await dialog().find('form').trigger('submit')
    await vi.waitFor(() => expect(dialog().find('[role=alert]').text()).toBe('Too many attempts. Try again in 60 seconds.'))
  })

  it('closes on Escape or Cancel without a request, and starts empty the next time', async () => {
    const { wrapper, dialog, opener } = await openDialog()
    await dialog().find('input[name=password]').setValue('half-typed')
    await dialog().find('input[name=password]').trigger('keydown', { key: 'Escape' })
    await flushPromises()
    expect((dialog().element as HTMLDialogElement).open).toBe(false)
    expect(document.activeElement).toBe(opener)

    await button(wrapper, 'Sign out all other sessions').trigger('click')
    await flushPromises()
    expect(dialog().find<HTMLInputElement>('input[name=password]').element.value).toBe('')
    await button(dialog(), 'Cancel').trigger('click')
    await flushPromises()
    expect((dialog().element as HTMLDialogElement).open).toBe(false)
    expect(deletes()).toHaveLength(0)
  })
})
