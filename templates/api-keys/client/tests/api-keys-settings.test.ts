import { enableAutoUnmount, flushPromises, type DOMWrapper, type VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { setLocale } from '@/lib/locale'
import { apiKey, fakeApiKeysApi, hoursAgo } from './support/fake-api-keys'
import { fakeStepUp } from './support/confirm-its-you'
import { startServer, type TestServer } from './support/server'
import { mountApp, user } from './support/mount-app'

let server: TestServer
let stepUp: ReturnType<typeof fakeStepUp>
let api: ReturnType<typeof fakeApiKeysApi>
const writeText = vi.fn<(text: string) => Promise<void>>()

/** The API for an admin (Ada) or a plain user (Ann), with two keys. */
function serve(role: 'admin' | 'user' = 'user') {
  server.on('GET', '/api/auth/me', { body: { user: user(role === 'admin' ? {} : { name: 'Ann', email: 'ann@example.com', role: 'user' }) } })
  api = fakeApiKeysApi(server, {
    admin: role === 'admin',
    guard: stepUp.guard,
    keys: [
      apiKey(1, 'Deploy script', { scopes: ['read', 'write'], lastUsedAt: hoursAgo(2), lastUsedIp: '203.0.113.7', expiresAt: '2030-01-01T00:00:00.000Z' }),
      apiKey(2, 'Backup', { scopes: ['read'] }),
    ],
  })
}

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  stepUp = fakeStepUp(server)
  serve()
  writeText.mockReset().mockResolvedValue(undefined)
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
})

const sent = (method: string, path: string) => server.received.filter((r) => r.method === method && r.path === path)
const button = (within: VueWrapper | DOMWrapper<Element>, name: string) =>
  within.findAll('button').find((b) => (b.attributes('aria-label') ?? b.text()) === name)
const names = (wrapper: VueWrapper) => wrapper.findAll('.api-key strong').map((el) => el.text())
const row = (wrapper: VueWrapper, name: string) => wrapper.findAll('.api-key').find((li) => li.find('strong').text() === name)!
const openDialog = (wrapper: VueWrapper, title: string) =>
  wrapper.findAll<HTMLDialogElement>('dialog').find((d) => d.element.open && d.find('h2').text() === title)
const reveal = (wrapper: VueWrapper) => wrapper.find<HTMLInputElement>('input[name=api-key]')

/** Fills the create form and submits it. */
async function create(wrapper: VueWrapper, name: string, options: { scopes?: string[]; expiry?: string } = {}) {
  const form = wrapper.find('form.api-key-create')
  await form.find('input[name=name]').setValue(name)
  for (const box of form.findAll<HTMLInputElement>('input[name=scopes]')) await box.setValue((options.scopes ?? ['read']).includes(box.element.value))
  await form.find('select[name=expires_in]').setValue(options.expiry ?? '')
  await form.trigger('submit')
}

/** Answers the "Confirm it's you" dialog with the password. */
async function confirmItsYou(wrapper: VueWrapper) {
  await vi.waitFor(() => expect(openDialog(wrapper, 'Confirm it’s you')).toBeDefined())
  const dialog = openDialog(wrapper, 'Confirm it’s you')!
  await dialog.find('input[name=password]').setValue('secret-password')
  await dialog.find('form').trigger('submit')
}

describe('API key settings', () => {
  it('is a section of the settings listing each key: name, prefix, scopes, dates, last use and from where', async () => {
    const { wrapper } = await mountApp(server, '/settings/api-keys')
    expect(document.title.startsWith('API keys')).toBe(true)
    expect(wrapper.find('nav[aria-label=Settings] [aria-current=page]').text()).toBe('API keys')
    await vi.waitFor(() => expect(names(wrapper)).toEqual(['Deploy script', 'Backup']))

    const used = row(wrapper, 'Deploy script')
    expect(used.find('.api-key__prefix').text()).toBe('cca_k1x9…')
    expect(used.findAll('.api-key__scopes li').map((li) => li.text())).toEqual(['Read', 'Write'])
    expect(used.find('.api-key__scopes').attributes('aria-label')).toBe('Scopes')
    expect(used.text()).toContain('Last used 2 hours ago from 203.0.113.7')
    expect(used.text()).toMatch(/Expires \S/)
    expect(used.find('time[datetime="2030-01-01T00:00:00.000Z"]').exists()).toBe(true)
    const idle = row(wrapper, 'Backup')
    expect(idle.text()).toContain('Never used')
    expect(idle.text()).toContain('Never expires')
    expect(idle.find(`time[datetime="${api.keys[1]!.createdAt}"]`).exists()).toBe(true)
    expect(button(wrapper, 'Rename Backup')).toBeDefined()
    expect(button(wrapper, 'Revoke Backup')).toBeDefined()
    // Never the key itself: the list has none to show.
    expect(reveal(wrapper).exists()).toBe(false)
  })

  it('says when there are none', async () => {
    api.keys = []
    const { wrapper } = await mountApp(server, '/settings/api-keys')
    await vi.waitFor(() => expect(wrapper.text()).toContain('You have no API keys yet.'))
  })

  it('creates a key after “Confirm it’s you”, shows it once, focused, and copies it', async () => {
    const { wrapper } = await mountApp(server, '/settings/api-keys')
    await vi.waitFor(() => expect(names(wrapper)).toHaveLength(2))
    await create(wrapper, '  CI runner ', { scopes: ['read', 'write'], expiry: '30d' })
    await confirmItsYou(wrapper)
    await vi.waitFor(() => expect(reveal(wrapper).exists()).toBe(true))

    // Refused once for want of a confirmation, then sent again as it was.
    expect(sent('POST', '/api/account/api-keys').map((r) => r.json)).toEqual([
      { name: 'CI runner', scopes: ['read', 'write'], expires_in: '30d' },
      { name: 'CI runner', scopes: ['read', 'write'], expires_in: '30d' },
    ])
    const secret = api.secrets[0]!
    const field = reveal(wrapper)
    expect(field.element.value).toBe(secret)
    expect(field.attributes('readonly')).toBeDefined()
    await vi.waitFor(() => expect(document.activeElement).toBe(field.element))
    expect(wrapper.find(`label[for="${field.attributes('id')}"]`).text()).toBe('API key “CI runner”')
    const announced = wrapper.find('.api-key-reveal [role=status]')
    expect(announced.text()).toBe('Key “CI runner” created. Copy it now: you won’t see it again.')
    expect(wrapper.find(`#${field.attributes('aria-describedby')}`).text()).toContain('only time the key is shown')
    await vi.waitFor(() => expect(names(wrapper)).toContain('CI runner'))
    expect(row(wrapper, 'CI runner').text()).toContain('Never used')
    // The form is ready for another key.
    expect(wrapper.find<HTMLInputElement>('form.api-key-create input[name=name]').element.value).toBe('')

    await button(wrapper, 'Copy')!.trigger('click')
    await vi.waitFor(() => expect(wrapper.find('.api-key-reveal .row [role=status]').text()).toBe('Copied to the clipboard.'))
    expect(writeText).toHaveBeenCalledWith(secret)

    // Once stored, it is gone from the page for good.
    await button(wrapper, 'Done, I have stored it')!.trigger('click')
    await flushPromises()
    expect(reveal(wrapper).exists()).toBe(false)
    expect(wrapper.html()).not.toContain(secret)
    expect(document.activeElement).toBe(wrapper.find('#api-keys-heading').element)
  })

  it('says so when the clipboard is refused, and leaves the key selected to copy by hand', async () => {
    writeText.mockRejectedValue(new DOMException('Denied', 'NotAllowedError'))
    stepUp.confirm()
    const { wrapper } = await mountApp(server, '/settings/api-keys')
    await create(wrapper, 'Laptop')
    await vi.waitFor(() => expect(reveal(wrapper).exists()).toBe(true))
    await button(wrapper, 'Copy')!.trigger('click')
    await vi.waitFor(() => expect(wrapper.text()).toContain('Your browser did not allow copying'))
    expect(document.activeElement).toBe(reveal(wrapper).element)
  })

  it('sends no expiry for a key that never expires, and shows the API’s word under the field it is about', async () => {
    stepUp.confirm()
    const { wrapper } = await mountApp(server, '/settings/api-keys')
    await create(wrapper, '   ')
    await vi.waitFor(() => expect(wrapper.find('form.api-key-create [role=alert]').text()).toBe('The name field is required.'))
    expect(wrapper.find('form.api-key-create input[name=name]').attributes('aria-invalid')).toBe('true')
    await create(wrapper, 'Backup 2', { scopes: [] })
    await vi.waitFor(() => expect(wrapper.find('fieldset [role=alert]').text()).toBe('Choose at least one scope.'))
    const fieldset = wrapper.find('fieldset.api-key-scopes')
    expect(fieldset.attributes('aria-describedby')).toBe(fieldset.find('[role=alert]').attributes('id'))
    expect(reveal(wrapper).exists()).toBe(false)

    await create(wrapper, 'Backup 2', { scopes: ['read'] })
    await vi.waitFor(() => expect(reveal(wrapper).exists()).toBe(true))
    expect(sent('POST', '/api/account/api-keys').at(-1)!.json).toEqual({ name: 'Backup 2', scopes: ['read'] })
  })

  it('offers the admin scope to admins only', async () => {
    const plain = await mountApp(server, '/settings/api-keys')
    const offered = (wrapper: VueWrapper) => wrapper.findAll<HTMLInputElement>('input[name=scopes]').map((box) => box.element.value)
    expect(offered(plain.wrapper)).toEqual(['read', 'write'])
    expect(plain.wrapper.find('fieldset.api-key-scopes').text()).not.toContain('Admin')
    plain.wrapper.unmount()

    server.reset()
    stepUp = fakeStepUp(server)
    stepUp.confirm()
    serve('admin')
    const { wrapper } = await mountApp(server, '/settings/api-keys')
    expect(offered(wrapper)).toEqual(['read', 'write', 'admin'])
    const admin = wrapper.find('input[name=scopes][value=admin]')
    expect(wrapper.find(`#${admin.attributes('aria-describedby')}`).text()).toBe('Use the admin routes, as long as you are an admin.')
    await create(wrapper, 'Admin tool', { scopes: ['admin', 'read'] })
    await vi.waitFor(() => expect(reveal(wrapper).exists()).toBe(true))
    expect(sent('POST', '/api/account/api-keys')[0]!.json).toEqual({ name: 'Admin tool', scopes: ['read', 'admin'] })
  })

  it('renames a key in place', async () => {
    const { wrapper } = await mountApp(server, '/settings/api-keys')
    await vi.waitFor(() => expect(names(wrapper)).toHaveLength(2))
    await button(wrapper, 'Rename Backup')!.trigger('click')
    await flushPromises()
    const field = wrapper.find<HTMLInputElement>('input[name=api-key-name]')
    expect(document.activeElement).toBe(field.element)
    expect(wrapper.find(`label[for="${field.attributes('id')}"]`).text()).toBe('New name for “Backup”')
    await field.setValue(' Nightly backup ')
    await wrapper.find('form.api-key__rename').trigger('submit')
    await vi.waitFor(() => expect(names(wrapper)).toEqual(['Deploy script', 'Nightly backup']))
    expect(sent('PATCH', '/api/account/api-keys/2').map((r) => r.json)).toEqual([{ name: 'Nightly backup' }])
    expect(wrapper.find('.settings__content [role=status]').text()).toBe('Renamed to “Nightly backup”.')
    expect(document.activeElement).toBe(button(wrapper, 'Rename Nightly backup')!.element)
  })

  it('revokes a key only once asked: Cancel keeps it, Revoke removes it', async () => {
    const { wrapper } = await mountApp(server, '/settings/api-keys')
    await vi.waitFor(() => expect(names(wrapper)).toHaveLength(2))
    await button(wrapper, 'Revoke Deploy script')!.trigger('click')
    await flushPromises()
    let dialog = openDialog(wrapper, 'Revoke API key')!
    expect(dialog.text()).toContain('Deploy script (cca_k1x9…) stops working at once')
    await button(dialog, 'Cancel')!.trigger('click')
    await flushPromises()
    expect(openDialog(wrapper, 'Revoke API key')).toBeUndefined()
    expect(sent('DELETE', '/api/account/api-keys/1')).toHaveLength(0)
    expect(names(wrapper)).toEqual(['Deploy script', 'Backup'])

    await button(wrapper, 'Revoke Deploy script')!.trigger('click')
    await flushPromises()
    dialog = openDialog(wrapper, 'Revoke API key')!
    await button(dialog, 'Revoke key')!.trigger('click')
    await vi.waitFor(() => expect(names(wrapper)).toEqual(['Backup']))
    expect(sent('DELETE', '/api/account/api-keys/1')).toHaveLength(1)
    expect(api.keys.map((key) => key.name)).toEqual(['Backup'])
    expect(openDialog(wrapper, 'Revoke API key')).toBeUndefined()
    expect(wrapper.find('.settings__content [role=status]').text()).toBe('Key “Deploy script” revoked.')
    await vi.waitFor(() => expect(document.activeElement).toBe(wrapper.find('#api-keys-heading').element))
  })

  it('shows what is left when a key was revoked elsewhere meanwhile', async () => {
    const { wrapper } = await mountApp(server, '/settings/api-keys')
    await vi.waitFor(() => expect(names(wrapper)).toHaveLength(2))
    api.keys = api.keys.filter((key) => key.id !== 2)
    await button(wrapper, 'Revoke Backup')!.trigger('click')
    await flushPromises()
    await button(openDialog(wrapper, 'Revoke API key')!, 'Revoke key')!.trigger('click')
    await vi.waitFor(() => expect(names(wrapper)).toEqual(['Deploy script']))
    expect(wrapper.find('.settings__content [role=alert]').text()).toBe('Not Found.')
  })
})

describe('API key settings in German', () => {
  afterEach(() => setLocale('en'))

  it('loads the page’s own texts in the language shown', async () => {
    await setLocale('de')
    const { wrapper } = await mountApp(server, '/settings/api-keys')
    await vi.waitFor(() => expect(names(wrapper)).toHaveLength(2))
    expect(wrapper.find('nav[aria-label=Einstellungen] [aria-current=page]').text()).toBe('API-Schlüssel')
    expect(wrapper.find('#api-keys-heading').text()).toBe('API-Schlüssel')
    expect(wrapper.find('#api-key-create-heading').text()).toBe('Einen Schlüssel erstellen')
    expect(wrapper.find('fieldset.api-key-scopes legend').text()).toBe('Berechtigungen')
    expect(row(wrapper, 'Backup').text()).toContain('Nie verwendet')
    expect(row(wrapper, 'Backup').text()).toContain('Läuft nie ab')
    expect(row(wrapper, 'Deploy script').text()).toContain('von 203.0.113.7')
    expect(button(wrapper, 'Backup widerrufen')).toBeDefined()
    expect(wrapper.findAll('select[name=expires_in] option').map((o) => o.text())).toEqual(['Nie', 'In 30 Tagen', 'In 90 Tagen', 'In einem Jahr'])

    stepUp.confirm()
    await create(wrapper, 'Skript')
    await vi.waitFor(() => expect(reveal(wrapper).exists()).toBe(true))
    expect(wrapper.find('.api-key-reveal [role=status]').text()).toBe('Schlüssel „Skript“ erstellt. Kopieren Sie ihn jetzt: Sie sehen ihn nicht noch einmal.')
  })
})
