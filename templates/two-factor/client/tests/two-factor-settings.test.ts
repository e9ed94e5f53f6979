import { enableAutoUnmount, flushPromises, type VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useAuthStore } from '@/stores/auth'
import { startServer, type TestServer } from './support/server'
import { mountApp, user } from './support/mount-app'

let server: TestServer
/** What the fake API holds for the signed-in user. */
let account: { enabled: boolean; codes: string[]; generation: number }

const SECRET = 'JBSWY3DPEHPK3PXP'
const QR = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 21 21"><path d="M0 0h7v7H0z"/></svg>'
const makeCodes = (generation: number) => Array.from({ length: 8 }, (_, i) => `code${generation}-${i}`)
const wrongPassword = { status: 422, body: { message: 'Invalid.', errors: { password: ['The password is incorrect.'] } } }

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
afterEach(() => {
  vi.restoreAllMocks()
  // Back to the DOM's own clipboard (the tests shadow it on the instance).
  delete (navigator as { clipboard?: unknown }).clipboard
})
beforeEach(() => {
  server.reset()
  account = { enabled: false, codes: [], generation: 0 }
  server.on('GET', '/api/auth/me', () => ({ body: { user: user({ name: 'Ann', role: 'user', twoFactorEnabled: account.enabled }) } }))
  // This session was confirmed lately: the set-up starts at once (two-factor-confirm.test.ts has the other case).
  server.on('POST', '/api/account/two-factor', { body: { secret: SECRET, otpauth_url: `otpauth://totp/App:ann%40example.com?secret=${SECRET}`, qr_svg: QR } })
  server.on('POST', '/api/account/two-factor/confirm', (req) => {
    if (req.json?.code !== '123456') return { status: 422, body: { message: 'Invalid.', errors: { code: ['The code is invalid.'] } } }
    account.enabled = true
    account.codes = makeCodes(++account.generation)
    return { body: { recovery_codes: account.codes } }
  })
  server.on('POST', '/api/account/two-factor/recovery-codes', (req) => {
    if (req.json?.password !== 'secret-password') return wrongPassword
    account.codes = makeCodes(++account.generation)
    return { body: { recovery_codes: account.codes } }
  })
  server.on('DELETE', '/api/account/two-factor', (req) => {
    if (req.json?.password !== 'secret-password') return wrongPassword
    account.enabled = false
    return { status: 204 }
  })
})

const requests = (method: string, path: string) => server.received.filter((r) => r.method === method && r.path === path)
const button = (wrapper: VueWrapper, text: string) => wrapper.findAll('button').find((b) => b.text() === text)
const shownCodes = (wrapper: VueWrapper) => wrapper.findAll('[data-testid=recovery-codes] li').map((li) => li.text())

/** Clicks `opener`, types the password into the dialog and confirms. */
async function withPassword(wrapper: VueWrapper, opener: string, password = 'secret-password') {
  await button(wrapper, opener)!.trigger('click')
  await flushPromises()
  const dialog = wrapper.find('dialog')
  await dialog.find('input[name=password]').setValue(password)
  await dialog.find('form').trigger('submit')
  return dialog
}

const dialogOpen = (wrapper: VueWrapper) => (wrapper.find('dialog').element as HTMLDialogElement).open

describe('two-factor settings', () => {
  it('is a section of the settings, off to begin with', async () => {
    const { wrapper } = await mountApp(server, '/settings/two-factor')
    expect(document.title.startsWith('Two-factor authentication')).toBe(true)
    const current = wrapper.find('nav[aria-label=Settings] [aria-current=page]')
    expect(current.text()).toBe('Two-factor authentication')
    expect(button(wrapper, 'Enable')).toBeDefined()
    expect(button(wrapper, 'Disable')).toBeUndefined()
  })

  it('enables: QR code and key, a wrong code, then the right one and the recovery codes', async () => {
    const { wrapper, pinia } = await mountApp(server, '/settings/two-factor')
    await button(wrapper, 'Enable')!.trigger('click')
    await vi.waitFor(() => expect(wrapper.find('[data-testid=two-factor-secret]').exists()).toBe(true))
    expect(requests('POST', '/api/account/two-factor')[0]!.json).toBeUndefined()
    expect(wrapper.find('[data-testid=two-factor-secret]').text()).toBe(SECRET)
    expect(wrapper.find('.two-factor__qr svg path').exists()).toBe(true)
    const code = wrapper.find('input[name=code]')
    expect(document.activeElement).toBe(code.element)
    expect(code.attributes('autocomplete')).toBe('one-time-code')

    await code.setValue('000000')
    await wrapper.find('.settings__content form').trigger('submit')
    await vi.waitFor(() => expect(wrapper.text()).toContain('The code is invalid.'))
    expect(wrapper.find<HTMLInputElement>('input[name=code]').element.value).toBe('')
    expect(useAuthStore(pinia).user?.twoFactorEnabled).toBe(false)

    await wrapper.find('input[name=code]').setValue('123 456')
    await wrapper.find('.settings__content form').trigger('submit')
    await vi.waitFor(() => expect(shownCodes(wrapper)).toEqual(makeCodes(1)))
    expect(requests('POST', '/api/account/two-factor/confirm').map((r) => r.json)).toEqual([{ code: '000000' }, { code: '123456' }])
    expect(useAuthStore(pinia).user?.twoFactorEnabled).toBe(true)
    expect(wrapper.text()).toContain('Two-factor authentication is on.')
    expect(wrapper.find('[data-testid=two-factor-secret]').exists()).toBe(false)
    expect(button(wrapper, 'Disable')).toBeDefined()
    expect(document.activeElement?.id).toBe('recovery-codes-heading')
  })

  it('copies the recovery codes and downloads them as a text file', async () => {
    account.enabled = true
    const writeText = vi.fn().mockResolvedValue(undefined)
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const files: Blob[] = []
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => (files.push(blob as Blob), 'blob:recovery-codes'))
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined)
    const clicked: { href: string; download: string }[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.getAttribute('href')!, download: this.download })
    })

    const { wrapper } = await mountApp(server, '/settings/two-factor')
    await withPassword(wrapper, 'Regenerate recovery codes')
    await vi.waitFor(() => expect(shownCodes(wrapper)).toHaveLength(8))

    await button(wrapper, 'Copy')!.trigger('click')
    await flushPromises()
    expect(writeText).toHaveBeenCalledWith(makeCodes(1).join('\n'))
    expect(wrapper.text()).toContain('Copied.')

    await button(wrapper, 'Download')!.trigger('click')
    expect(clicked).toEqual([{ href: 'blob:recovery-codes', download: 'recovery-codes.txt' }])
    const text = await files[0]!.text()
    for (const code of makeCodes(1)) expect(text).toContain(`\n${code}\n`)
    expect(text).toContain('ada@example.com')
  })

  it('says so when the clipboard is out of reach', async () => {
    account.enabled = true
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true })
    const { wrapper } = await mountApp(server, '/settings/two-factor')
    await withPassword(wrapper, 'Regenerate recovery codes')
    await vi.waitFor(() => expect(shownCodes(wrapper)).toHaveLength(8))
    await button(wrapper, 'Copy')!.trigger('click')
    await flushPromises()
    expect(wrapper.text()).toContain('select the codes and copy them yourself')
  })

  it('regenerates the recovery codes, showing the new ones, and hides them when saved', async () => {
    account.enabled = true
    account.codes = makeCodes(++account.generation)
    const { wrapper } = await mountApp(server, '/settings/two-factor')
    expect(wrapper.find('[data-testid=recovery-codes]').exists()).toBe(false)
    await withPassword(wrapper, 'Regenerate recovery codes')
    await vi.waitFor(() => expect(shownCodes(wrapper)).toEqual(makeCodes(2)))
    expect(requests('POST', '/api/account/two-factor/recovery-codes')[0]!.json).toEqual({ password: 'secret-password' })
    expect(wrapper.text()).toContain('The old ones no longer work.')
    await button(wrapper, 'I have saved them')!.trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid=recovery-codes]').exists()).toBe(false)
  })

  it('disables with the password, after which the page offers to enable again', async () => {
    account.enabled = true
    const { wrapper, pinia } = await mountApp(server, '/settings/two-factor')
    const dialog = await withPassword(wrapper, 'Disable')
    expect(dialog.find('button[type=submit]').classes()).toContain('btn--danger-solid')
    await vi.waitFor(() => expect(button(wrapper, 'Enable')).toBeDefined())
    expect(requests('DELETE', '/api/account/two-factor')[0]!.json).toEqual({ password: 'secret-password' })
    expect(useAuthStore(pinia).user?.twoFactorEnabled).toBe(false)
    expect(wrapper.text()).toContain('Two-factor authentication is off.')
    expect(dialogOpen(wrapper)).toBe(false)
  })

  it('shows a wrong password in the dialog, which stays open', async () => {
    account.enabled = true
    const { wrapper, pinia } = await mountApp(server, '/settings/two-factor')
    const dialog = await withPassword(wrapper, 'Disable', 'wrong')
    await vi.waitFor(() => expect(dialog.text()).toContain('The password is incorrect.'))
    expect(dialog.find('input[name=password]').attributes('aria-invalid')).toBe('true')
    expect(dialog.find<HTMLInputElement>('input[name=password]').element.value).toBe('')
    expect(dialogOpen(wrapper)).toBe(true)
    expect(useAuthStore(pinia).user?.twoFactorEnabled).toBe(true)
  })

  it('shows why the set-up could not start', async () => {
    server.on('POST', '/api/account/two-factor', { status: 429, body: { message: 'Too many attempts. Try again in 60 seconds.' } })
    const { wrapper } = await mountApp(server, '/settings/two-factor')
    await button(wrapper, 'Enable')!.trigger('click')
    await vi.waitFor(() => expect(wrapper.find('.settings__content [role=alert]').text()).toBe('Too many attempts. Try again in 60 seconds.'))
    expect(wrapper.find('[data-testid=two-factor-secret]').exists()).toBe(false)
  })

  it('shows a throttled answer in the dialog', async () => {
    account.enabled = true
    server.on('DELETE', '/api/account/two-factor', { status: 429, body: { message: 'Too many attempts. Try again in 60 seconds.' } })
    const { wrapper } = await mountApp(server, '/settings/two-factor')
    const dialog = await withPassword(wrapper, 'Disable')
    await vi.waitFor(() => expect(dialog.find('[role=alert]').text()).toBe('Too many attempts. Try again in 60 seconds.'))
    expect(dialogOpen(wrapper)).toBe(true)
  })

  it('Cancel leaves the set-up without confirming anything', async () => {
    const { wrapper } = await mountApp(server, '/settings/two-factor')
    await button(wrapper, 'Enable')!.trigger('click')
    await vi.waitFor(() => expect(wrapper.find('[data-testid=two-factor-secret]').exists()).toBe(true))
    await button(wrapper, 'Cancel')!.trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid=two-factor-secret]').exists()).toBe(false)
    expect(button(wrapper, 'Enable')).toBeDefined()
    expect(requests('POST', '/api/account/two-factor/confirm')).toHaveLength(0)
  })
})
