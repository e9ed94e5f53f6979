import { enableAutoUnmount, type DOMWrapper, type VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { startServer, type TestServer } from './support/server'
import { mountApp, user } from './support/mount-app'
import { fakeStepUp } from './support/confirm-its-you'

let server: TestServer

const SECRET = 'JBSWY3DPEHPK3PXP'
const wrongCode = { status: 422, body: { message: 'Invalid.', errors: { code: ['The code is invalid.'] } } }

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  // Two-factor is on already (here, to move to a new phone): the account can confirm with a code.
  const stepUp = fakeStepUp(server, ['password', 'totp'])
  server.on('POST', '/api/account/confirm', (req) => (req.json?.code === '123456' || req.json?.code === 'abcde-12345' ? stepUp.confirm() : wrongCode))
  server.on('GET', '/api/auth/me', { body: { user: user({ name: 'Ann', role: 'user', twoFactorEnabled: false }) } })
  server.on('POST', '/api/account/two-factor', stepUp.guard(() => ({ body: { secret: SECRET, otpauth_url: `otpauth://totp/App?secret=${SECRET}`, qr_svg: '<svg/>' } })))
})

const sent = (method: string, path: string) => server.received.filter((r) => r.method === method && r.path === path)
const confirmDialog = (wrapper: VueWrapper) =>
  wrapper.findAll<HTMLDialogElement>('dialog').find((d) => d.element.open && d.find('h2').text() === 'Confirm it’s you')

async function enable(): Promise<{ wrapper: VueWrapper; dialog: DOMWrapper<HTMLDialogElement> }> {
  const { wrapper } = await mountApp(server, '/settings/two-factor')
  await wrapper.findAll('button').find((b) => b.text() === 'Enable')!.trigger('click')
  await vi.waitFor(() => expect(confirmDialog(wrapper)).toBeDefined())
  return { wrapper, dialog: confirmDialog(wrapper)! }
}

async function typeCode(dialog: DOMWrapper<HTMLDialogElement>, code: string) {
  await dialog.find('input[name=code]').setValue(code)
  await dialog.findAll('form').find((form) => form.find('input[name=code]').exists())!.trigger('submit')
}

describe('confirm it’s you with a two-factor code', () => {
  it('is offered beside the password; a code from the app confirms, and the set-up starts', async () => {
    const { wrapper, dialog } = await enable()
    expect(dialog.find('input[name=password]').exists()).toBe(true)
    expect(dialog.find('input[name=code]').attributes('autocomplete')).toBe('one-time-code')

    await typeCode(dialog, '123 456')
    await vi.waitFor(() => expect(wrapper.find('[data-testid=two-factor-secret]').exists()).toBe(true))
    expect(sent('POST', '/api/account/confirm').map((r) => r.json)).toEqual([{ code: '123456' }])
    expect(sent('POST', '/api/account/two-factor')).toHaveLength(2)
    expect(confirmDialog(wrapper)).toBeUndefined()
  })

  it('takes a recovery code in the same field', async () => {
    const { wrapper, dialog } = await enable()
    await typeCode(dialog, ' abcde-12345 ')
    await vi.waitFor(() => expect(wrapper.find('[data-testid=two-factor-secret]').exists()).toBe(true))
    expect(sent('POST', '/api/account/confirm').map((r) => r.json)).toEqual([{ code: 'abcde-12345' }])
  })

  it('says a wrong code in its field, emptied for another try, and the dialog stays', async () => {
    const { wrapper, dialog } = await enable()
    await typeCode(dialog, '000000')
    await vi.waitFor(() => expect(dialog.text()).toContain('The code is invalid.'))
    const field = dialog.find<HTMLInputElement>('input[name=code]')
    expect(field.attributes('aria-invalid')).toBe('true')
    expect(field.element.value).toBe('')
    expect(confirmDialog(wrapper)).toBeDefined()
    expect(sent('POST', '/api/account/two-factor')).toHaveLength(1)
  })
})
