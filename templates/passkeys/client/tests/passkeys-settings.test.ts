import { enableAutoUnmount, flushPromises, type VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Passkey } from '@/features/passkeys/lib/passkeys'
import { useAuthStore } from '@/stores/auth'
import { domError, registrationResponse, webauthn } from './support/fake-webauthn'
import { startServer, type TestServer } from './support/server'
import { mountApp, user } from './support/mount-app'

vi.mock('@simplewebauthn/browser', () => import('./support/fake-webauthn'))

let server: TestServer
/** What the fake API holds for the signed-in user. */
let keys: Passkey[]
let nextId: number

const REGISTRATION_OPTIONS = { challenge: 'registration-1', rp: { id: 'localhost', name: 'App' }, user: { id: 'dXNlcg', name: 'ann@example.com', displayName: 'Ann' }, pubKeyCredParams: [{ type: 'public-key', alg: -7 }] }
const wrongPassword = { status: 422, body: { message: 'Invalid.', errors: { password: ['The password is incorrect.'] } } }
const notFound = { status: 404, body: { message: 'Not found.' } }
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString()

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  webauthn.reset()
  nextId = 3
  keys = [
    { id: 1, name: 'iCloud Keychain', createdAt: hoursAgo(72), lastUsedAt: hoursAgo(2), backedUp: true },
    { id: 2, name: 'YubiKey', createdAt: hoursAgo(48), lastUsedAt: null, backedUp: false },
  ]
  const byId = (id: string) => keys.find((key) => String(key.id) === id)
  server.on('GET', '/api/auth/me', () => ({ body: { user: user({ name: 'Ann', role: 'user', passkeys: keys.length }) } }))
  server.on('GET', '/api/account/passkeys', () => ({ body: { data: keys } }))
  server.on('POST', '/api/account/passkeys/options', (req) =>
    req.json?.password === 'secret-password' ? { body: { ...REGISTRATION_OPTIONS, excludeCredentials: keys.map((k) => ({ id: `cred-${k.id}`, type: 'public-key' })) } } : wrongPassword,
  )
  server.on('POST', '/api/account/passkeys', (req) => {
    if (req.json?.response?.id === 'cred-taken') return { status: 422, body: { message: 'Invalid.', errors: { response: ['This passkey is already registered.'] } } }
    const passkey = { id: nextId++, name: req.json.name ?? 'Chrome on Linux', createdAt: new Date().toISOString(), lastUsedAt: null, backedUp: true }
    keys = [...keys, passkey]
    return { status: 201, body: { passkey } }
  })
  for (const id of ['1', '2', '3']) {
    server.on('PATCH', `/api/account/passkeys/${id}`, (req) => {
      const passkey = byId(id)
      if (!passkey) return notFound
      if (!req.json?.name?.trim()) return { status: 422, body: { message: 'Invalid.', errors: { name: ['The name field is required.'] } } }
      passkey.name = req.json.name
      return { body: { passkey } }
    })
    server.on('DELETE', `/api/account/passkeys/${id}`, (req) => {
      if (req.json?.password !== 'secret-password') return wrongPassword
      if (!byId(id)) return notFound
      keys = keys.filter((key) => String(key.id) !== id)
      return { status: 204 }
    })
  }
})

const requests = (method: string, path: string) => server.received.filter((r) => r.method === method && r.path === path)
const button = (wrapper: VueWrapper, name: string) =>
  wrapper.findAll('button').find((b) => (b.attributes('aria-label') ?? b.text()) === name)
const names = (wrapper: VueWrapper) => wrapper.findAll('.passkey strong').map((el) => el.text())
const row = (wrapper: VueWrapper, name: string) => wrapper.findAll('.passkey').find((li) => li.find('strong').text() === name)!
const dialogOpen = (wrapper: VueWrapper) => (wrapper.find('dialog').element as HTMLDialogElement).open
const status = (wrapper: VueWrapper) => wrapper.find('.settings__content [role=status]')

/** Types the password into the open dialog and confirms. */
async function confirmWith(wrapper: VueWrapper, password = 'secret-password') {
  await flushPromises()
  const dialog = wrapper.find('dialog')
  await dialog.find('input[name=password]').setValue(password)
  await dialog.find('form').trigger('submit')
  return dialog
}

/** Submits the add form and gets through the password dialog, up to the browser's prompt. */
async function startAdding(wrapper: VueWrapper, name = '') {
  await wrapper.find('input[name=name]').setValue(name)
  await wrapper.find('form.passkey-add').trigger('submit')
  await confirmWith(wrapper)
  await vi.waitFor(() => expect(webauthn.ceremonies).toHaveLength(1))
  return webauthn.last()
}

describe('passkey settings', () => {
  it('is a section of the settings listing each passkey: name, dates, synced or not', async () => {
    const { wrapper } = await mountApp(server, '/settings/passkeys')
    expect(document.title.startsWith('Passkeys')).toBe(true)
    expect(wrapper.find('nav[aria-label=Settings] [aria-current=page]').text()).toBe('Passkeys')
    await vi.waitFor(() => expect(names(wrapper)).toEqual(['iCloud Keychain', 'YubiKey']))

    const synced = row(wrapper, 'iCloud Keychain')
    expect(synced.find('.badge').text()).toBe('Synced')
    expect(synced.text()).toContain('Last used 2 hours ago')
    expect(synced.find(`time[datetime="${keys[0]!.createdAt}"]`).exists()).toBe(true)
    const single = row(wrapper, 'YubiKey')
    expect(single.find('.badge').exists()).toBe(false)
    expect(single.text()).toContain('Never used')
    expect(button(wrapper, 'Rename YubiKey')).toBeDefined()
    expect(button(wrapper, 'Remove YubiKey')).toBeDefined()
  })

  it('says when there are none', async () => {
    keys = []
    const { wrapper } = await mountApp(server, '/settings/passkeys')
    await vi.waitFor(() => expect(wrapper.text()).toContain('You have no passkeys yet.'))
    expect(button(wrapper, 'Add a passkey')).toBeDefined()
  })

  it('adds a passkey: the password, the browser’s prompt, then the API, under the name given', async () => {
    const { wrapper, pinia } = await mountApp(server, '/settings/passkeys')
    await vi.waitFor(() => expect(names(wrapper)).toHaveLength(2))
    const prompt = await startAdding(wrapper, '  Work laptop ')
    expect(requests('POST', '/api/account/passkeys/options')[0]!.json).toEqual({ password: 'secret-password' })
    expect(prompt.kind).toBe('create')
    expect(prompt.optionsJSON).toMatchObject({ challenge: 'registration-1', excludeCredentials: [{ id: 'cred-1' }, { id: 'cred-2' }] })
    expect(dialogOpen(wrapper)).toBe(false)
    await flushPromises()
    expect(wrapper.find('form.passkey-add button').text()).toBe('Waiting for your passkey…')

    prompt.resolve(registrationResponse())
    await vi.waitFor(() => expect(names(wrapper)).toEqual(['iCloud Keychain', 'YubiKey', 'Work laptop']))
    expect(requests('POST', '/api/account/passkeys')[0]!.json).toEqual({ name: 'Work laptop', response: registrationResponse() })
    expect(status(wrapper).text()).toBe('Passkey “Work laptop” added. You can sign in with it now.')
    await vi.waitFor(() => expect(useAuthStore(pinia).user?.passkeys).toBe(3))
    expect(wrapper.find<HTMLInputElement>('input[name=name]').element.value).toBe('')
    expect(wrapper.find('form.passkey-add button').text()).toBe('Add a passkey')
  })

  it('leaves the name to the API when none is given', async () => {
    const { wrapper } = await mountApp(server, '/settings/passkeys')
    const prompt = await startAdding(wrapper)
    prompt.resolve(registrationResponse())
    await vi.waitFor(() => expect(names(wrapper)).toContain('Chrome on Linux'))
    expect(requests('POST', '/api/account/passkeys')[0]!.json).toEqual({ response: registrationResponse() })
  })

  it('a wrong password stays in the dialog, and no prompt opens', async () => {
    const { wrapper } = await mountApp(server, '/settings/passkeys')
    await wrapper.find('form.passkey-add').trigger('submit')
    const dialog = await confirmWith(wrapper, 'wrong')
    await vi.waitFor(() => expect(dialog.text()).toContain('The password is incorrect.'))
    expect(dialogOpen(wrapper)).toBe(true)
    expect(dialog.find<HTMLInputElement>('input[name=password]').element.value).toBe('')
    expect(webauthn.ceremonies).toHaveLength(0)
  })

  it('a closed prompt adds nothing and says so calmly', async () => {
    const { wrapper } = await mountApp(server, '/settings/passkeys')
    const prompt = await startAdding(wrapper)
    prompt.reject(domError('NotAllowedError', 'The operation either timed out or was not allowed.'))
    await vi.waitFor(() => expect(status(wrapper).text()).toBe('No passkey was added.'))
    expect(wrapper.find('.settings__content [role=alert]').exists()).toBe(false)
    expect(requests('POST', '/api/account/passkeys')).toHaveLength(0)
    expect(button(wrapper, 'Add a passkey')!.attributes('disabled')).toBeUndefined()
  })

  it('an authenticator that already holds one of the user’s passkeys is told apart', async () => {
    const { wrapper } = await mountApp(server, '/settings/passkeys')
    const prompt = await startAdding(wrapper)
    prompt.reject(domError('InvalidStateError', 'The user attempted to register an authenticator that contains one of the credentials already registered with the relying party.'))
    await vi.waitFor(() => expect(status(wrapper).text()).toBe('This device already holds a passkey for your account.'))
    expect(requests('POST', '/api/account/passkeys')).toHaveLength(0)
  })

  it('shows the API’s refusal of a new passkey', async () => {
    const { wrapper, pinia } = await mountApp(server, '/settings/passkeys')
    await vi.waitFor(() => expect(names(wrapper)).toHaveLength(2))
    const prompt = await startAdding(wrapper, 'Spare')
    prompt.resolve(registrationResponse('cred-taken'))
    await vi.waitFor(() => expect(wrapper.find('.settings__content [role=alert]').text()).toBe('This passkey is already registered.'))
    expect(names(wrapper)).toEqual(['iCloud Keychain', 'YubiKey'])
    expect(useAuthStore(pinia).user?.passkeys).toBe(2)
    // The name stays for another try.
    expect(wrapper.find<HTMLInputElement>('input[name=name]').element.value).toBe('Spare')
  })

  it('renames in place; Escape leaves the name as it was', async () => {
    const { wrapper } = await mountApp(server, '/settings/passkeys')
    await vi.waitFor(() => expect(names(wrapper)).toHaveLength(2))
    await button(wrapper, 'Rename YubiKey')!.trigger('click')
    await flushPromises()
    const field = wrapper.find<HTMLInputElement>('input[name=passkey-name]')
    expect(field.element.value).toBe('YubiKey')
    expect(document.activeElement).toBe(field.element)
    expect(wrapper.find(`label[for="${field.attributes('id')}"]`).text()).toBe('New name for “YubiKey”')

    await field.setValue('Keyring key')
    await wrapper.find('form.passkey__rename').trigger('submit')
    await vi.waitFor(() => expect(names(wrapper)).toEqual(['iCloud Keychain', 'Keyring key']))
    expect(requests('PATCH', '/api/account/passkeys/2')[0]!.json).toEqual({ name: 'Keyring key' })
    expect(status(wrapper).text()).toBe('Renamed to “Keyring key”.')
    expect(document.activeElement).toBe(button(wrapper, 'Rename Keyring key')!.element)

    await button(wrapper, 'Rename iCloud Keychain')!.trigger('click')
    await flushPromises()
    await wrapper.find('input[name=passkey-name]').setValue('Something else')
    await wrapper.find('input[name=passkey-name]').trigger('keydown', { key: 'Escape' })
    await flushPromises()
    expect(wrapper.find('input[name=passkey-name]').exists()).toBe(false)
    expect(names(wrapper)).toEqual(['iCloud Keychain', 'Keyring key'])
    expect(requests('PATCH', '/api/account/passkeys/1')).toHaveLength(0)
    expect(document.activeElement).toBe(button(wrapper, 'Rename iCloud Keychain')!.element)
  })

  it('shows a refused name on the field, which stays open', async () => {
    const { wrapper } = await mountApp(server, '/settings/passkeys')
    await vi.waitFor(() => expect(names(wrapper)).toHaveLength(2))
    await button(wrapper, 'Rename YubiKey')!.trigger('click')
    await flushPromises()
    await wrapper.find('input[name=passkey-name]').setValue('  ')
    await wrapper.find('form.passkey__rename').trigger('submit')
    await vi.waitFor(() => expect(wrapper.find('.passkey__rename .field__error').text()).toBe('The name field is required.'))
    expect(wrapper.find('input[name=passkey-name]').attributes('aria-invalid')).toBe('true')
    expect(keys[1]!.name).toBe('YubiKey')
  })

  it('removes a passkey with the password', async () => {
    const { wrapper, pinia } = await mountApp(server, '/settings/passkeys')
    await vi.waitFor(() => expect(names(wrapper)).toHaveLength(2))
    await button(wrapper, 'Remove YubiKey')!.trigger('click')
    await flushPromises()
    const dialog = wrapper.find('dialog')
    expect(dialog.text()).toContain('“YubiKey” will no longer sign you in.')
    expect(dialog.find('button[type=submit]').classes()).toContain('btn--danger-solid')
    await confirmWith(wrapper)

    await vi.waitFor(() => expect(names(wrapper)).toEqual(['iCloud Keychain']))
    expect(requests('DELETE', '/api/account/passkeys/2')[0]!.json).toEqual({ password: 'secret-password' })
    expect(dialogOpen(wrapper)).toBe(false)
    expect(status(wrapper).text()).toContain('Passkey “YubiKey” removed.')
    expect(useAuthStore(pinia).user?.passkeys).toBe(1)
    expect(document.activeElement?.id).toBe('passkeys-heading')
  })

  it('a wrong password removes nothing', async () => {
    const { wrapper } = await mountApp(server, '/settings/passkeys')
    await vi.waitFor(() => expect(names(wrapper)).toHaveLength(2))
    await button(wrapper, 'Remove YubiKey')!.trigger('click')
    const dialog = await confirmWith(wrapper, 'wrong')
    await vi.waitFor(() => expect(dialog.text()).toContain('The password is incorrect.'))
    expect(dialogOpen(wrapper)).toBe(true)
    expect(names(wrapper)).toEqual(['iCloud Keychain', 'YubiKey'])
  })

  it('a passkey removed elsewhere meanwhile: says so and shows what is left', async () => {
    const { wrapper } = await mountApp(server, '/settings/passkeys')
    await vi.waitFor(() => expect(names(wrapper)).toHaveLength(2))
    keys = keys.filter((key) => key.id !== 2)
    await button(wrapper, 'Remove YubiKey')!.trigger('click')
    await confirmWith(wrapper)
    await vi.waitFor(() => expect(wrapper.find('.settings__content [role=alert]').text()).toBe('Not found.'))
    await vi.waitFor(() => expect(names(wrapper)).toEqual(['iCloud Keychain']))
    expect(dialogOpen(wrapper)).toBe(false)
  })

  it('without WebAuthn it lists and manages passkeys but cannot add one', async () => {
    webauthn.supported = false
    const { wrapper } = await mountApp(server, '/settings/passkeys')
    await vi.waitFor(() => expect(names(wrapper)).toHaveLength(2))
    expect(wrapper.text()).toContain('Passkeys are not supported in this browser.')
    expect(wrapper.find('form.passkey-add').exists()).toBe(false)
    expect(button(wrapper, 'Add a passkey')).toBeUndefined()
    expect(button(wrapper, 'Remove YubiKey')).toBeDefined()
  })
})
