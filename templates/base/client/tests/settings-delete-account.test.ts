import { enableAutoUnmount, flushPromises } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useAuthStore } from '@/stores/auth'
import { startServer, type TestServer } from './support/server'
import { mountApp, user } from './support/mount-app'

let server: TestServer

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  server.on('GET', '/api/auth/me', { body: { user: user({ name: 'Ann', role: 'user' }) } })
})

const deletes = () => server.received.filter((r) => r.method === 'DELETE' && r.path === '/api/account')

async function confirmWith(password: string) {
  const app = await mountApp(server, '/settings/delete-account')
  const opener = app.wrapper.findAll('button').find((b) => b.text() === 'Delete account')!
  opener.element.focus()
  await opener.trigger('click')
  await flushPromises()
  const dialog = () => app.wrapper.find('dialog')
  await dialog().find('input[name=password]').setValue(password)
  await dialog().find('form').trigger('submit')
  return { ...app, dialog, opener: opener.element }
}

describe('delete account', () => {
  it('is a danger zone whose button asks for the password in a dialog', async () => {
    const { wrapper } = await mountApp(server, '/settings/delete-account')
    expect(document.title.startsWith('Delete account')).toBe(true)
    expect(wrapper.find('.card--danger').text()).toContain('cannot be undone')
    expect((wrapper.find('dialog').element as HTMLDialogElement).open).toBe(false)
    await wrapper.findAll('button').find((b) => b.text() === 'Delete account')!.trigger('click')
    await flushPromises()
    const dialog = wrapper.find('dialog')
    expect((dialog.element as HTMLDialogElement).open).toBe(true)
    expect(document.getElementById(dialog.attributes('aria-labelledby')!)?.textContent).toBe('Delete your account?')
    await vi.waitFor(() => expect(document.activeElement).toBe(dialog.find('input[name=password]').element))
  })

  it('deletes with the password, signs out and goes to /login with a message', async () => {
    server.on('DELETE', '/api/account', { status: 204 })
    const { wrapper, router, pinia } = await confirmWith('secret-password')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/login'))
    expect(deletes()[0]!.json).toEqual({ password: 'secret-password' })
    expect(useAuthStore(pinia).user).toBeNull()
    expect(wrapper.text()).toContain('Your account has been deleted.')
    expect(wrapper.find('header a[href="/register"]').exists()).toBe(true)
  })

  it('shows a wrong password under the field and stays', async () => {
    server.on('DELETE', '/api/account', { status: 422, body: { message: 'Invalid.', errors: { password: ['The password is incorrect.'] } } })
    const { dialog, router, pinia } = await confirmWith('wrong')
    await vi.waitFor(() => expect(dialog().text()).toContain('The password is incorrect.'))
    expect(dialog().find('input[name=password]').attributes('aria-invalid')).toBe('true')
    expect((dialog().element as HTMLDialogElement).open).toBe(true)
    expect(router.currentRoute.value.path).toBe('/settings/delete-account')
    expect(useAuthStore(pinia).user?.name).toBe('Ann')
  })

  it('shows why the last admin cannot go (the API answers on the password field)', async () => {
    const reason = 'You are the only admin: make another user an admin before deleting your account.'
    server.on('DELETE', '/api/account', { status: 422, body: { message: 'Invalid.', errors: { password: [reason] } } })
    const { dialog, router } = await confirmWith('secret-password')
    await vi.waitFor(() => expect(dialog().find('.field__error').text()).toBe(reason))
    expect(router.currentRoute.value.path).toBe('/settings/delete-account')
  })

  it('shows an error of another field above the password', async () => {
    server.on('DELETE', '/api/account', { status: 422, body: { message: 'Invalid.', errors: { account: ['This account cannot be deleted.'] } } })
    const { dialog } = await confirmWith('secret-password')
    await vi.waitFor(() => expect(dialog().find('[role=alert]').text()).toBe('This account cannot be deleted.'))
    expect(dialog().find('input[name=password]').attributes('aria-invalid')).toBeUndefined()
  })

  it('shows the message of a refusal without field errors', async () => {
    server.on('DELETE', '/api/account', { status: 422, body: { message: 'The only administrator cannot delete their account.' } })
    const { dialog } = await confirmWith('secret-password')
    await vi.waitFor(() => expect(dialog().find('[role=alert]').text()).toBe('The only administrator cannot delete their account.'))
  })

  it('Cancel closes the dialog and hands focus back, sending nothing', async () => {
    const { wrapper } = await mountApp(server, '/settings/delete-account')
    const opener = wrapper.findAll('button').find((b) => b.text() === 'Delete account')!
    opener.element.focus()
    await opener.trigger('click')
    await flushPromises()
    await wrapper.find('dialog').findAll('button').find((b) => b.text() === 'Cancel')!.trigger('click')
    await flushPromises()
    expect((wrapper.find('dialog').element as HTMLDialogElement).open).toBe(false)
    expect(document.activeElement).toBe(opener.element)
    expect(deletes()).toHaveLength(0)
  })
})
