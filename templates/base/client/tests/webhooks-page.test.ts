import { enableAutoUnmount, flushPromises, type VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { WebhookDelivery, WebhookEndpoint } from '@/types'
import { mountApp, user } from './support/mount-app'
import { startServer, type TestServer } from './support/server'
import { fakeStepUp } from './support/confirm-its-you'

let server: TestServer
let endpoints: WebhookEndpoint[]

const endpoint = (overrides: Partial<WebhookEndpoint>): WebhookEndpoint => ({
  id: 1, url: 'https://crm.example.com/hooks', events: ['*'], paused: null, createdAt: '2026-01-01T10:00:00.000Z', updatedAt: '2026-01-01T10:00:00.000Z', ...overrides,
})
const delivery = (overrides: Partial<WebhookDelivery>): WebhookDelivery => ({
  id: 9, event: 'sign_in', status: 'delivered', attempts: 3, responseStatus: 200, createdAt: '2026-01-02T10:00:00.000Z', deliveredAt: '2026-01-02T10:00:05.000Z', ...overrides,
})

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  endpoints = [endpoint({})]
  server.on('GET', '/api/auth/me', { body: { user: user({ name: 'Ada', role: 'admin' }) } })
  server.on('GET', '/api/webhooks', () => ({ body: { data: endpoints, events: ['sign_in', 'user.created', 'user.deleted'] } }))
  server.on('POST', '/api/webhooks', (req) => {
    if (!String(req.json?.url).startsWith('https://')) return { status: 422, body: { message: 'Invalid.', errors: { url: ['The URL must start with https://.'] } } }
    endpoints = [...endpoints, endpoint({ id: 2, url: req.json.url, events: req.json.events })]
    return { status: 201, body: { webhook: { ...endpoints[1], secret: 'whsec_c2VjcmV0LXNob3duLW9uY2U=' } } }
  })
  server.on('PATCH', '/api/webhooks/1', (req) => {
    endpoints = [endpoint({ events: req.json.events })]
    return { body: { webhook: endpoints[0] } }
  })
  server.on('POST', '/api/webhooks/1/test', { status: 202, body: { delivery: delivery({ event: 'webhook.test', status: 'pending', attempts: 0 }) } })
  server.on('DELETE', '/api/webhooks/1', () => {
    endpoints = []
    return { status: 204 }
  })
  server.on('GET', '/api/webhooks/1/deliveries', {
    body: { data: { data: [delivery({}), delivery({ id: 8, status: 'retrying', responseStatus: 503 })], current_page: 1, last_page: 1, per_page: 10, total: 2, path: '/api/webhooks/1/deliveries', from: 1, to: 2 } },
  })
})

const button = (wrapper: any, text: string) => wrapper.findAll('button').find((b: any) => b.text() === text)
const sent = (method: string, path: string) => server.received.filter((r) => r.method === method && r.path === path)

async function mountPage() {
  const app = await mountApp(server, '/admin/webhooks')
  await vi.waitFor(() => expect(app.wrapper.findAll('.webhook-list > li')).toHaveLength(1))
  return app
}

describe('the webhooks admin page', () => {
  it('is linked for admins and lists the endpoints with their events', async () => {
    const { wrapper } = await mountPage()
    expect(document.title.startsWith('Webhooks')).toBe(true)
    expect(wrapper.find('a[href="/admin/webhooks"]').exists()).toBe(true)
    expect(wrapper.find('.webhook-list').text()).toContain('https://crm.example.com/hooks')
    expect(wrapper.find('.webhook-list').text()).toContain('All events')
  })

  it('shows a paused endpoint as paused, since when and why', async () => {
    endpoints = [endpoint({ paused: { since: '2026-01-03T10:00:00.000Z', until: '2026-01-03T10:01:00.000Z', reason: 'No answer within 5 s.' } })]
    const { wrapper } = await mountPage()
    const card = wrapper.find('.webhook-list > li')
    expect(card.find('.badge').text()).toBe('Paused')
    expect(card.find('.webhook-paused-text').text()).toMatch(/^Paused since .+: it failed too often in a row \(last: No answer within 5 s\.\)/)
    endpoints = [endpoint({})]
    const flowing = await mountPage()
    expect(flowing.wrapper.find('.webhook-paused-text').exists()).toBe(false)
  })

  it('adds an endpoint, showing its secret once, and shows the API\'s field errors', async () => {
    const { wrapper } = await mountPage()
    await wrapper.find('input[name="url"]').setValue('http://inside.example')
    await wrapper.find('form').trigger('submit')
    await vi.waitFor(() => expect(wrapper.text()).toContain('The URL must start with https://.'))

    await wrapper.find('input[name="url"]').setValue('https://hooks.example.com/in')
    await wrapper.find('input[value="*"]').setValue(false)
    await wrapper.find('input[value="user.created"]').setValue(true)
    await wrapper.find('form').trigger('submit')
    await vi.waitFor(() => expect(wrapper.find('.webhook-secret').exists()).toBe(true))
    expect(sent('POST', '/api/webhooks').at(-1)!.json).toEqual({ url: 'https://hooks.example.com/in', events: ['user.created'] })
    expect(wrapper.find('.webhook-secret').text()).toBe('whsec_c2VjcmV0LXNob3duLW9uY2U=')
    await vi.waitFor(() => expect(wrapper.findAll('.webhook-list > li')).toHaveLength(2))
    await button(wrapper, 'Done').trigger('click')
    expect(wrapper.text()).not.toContain('whsec_')
  })

  it('edits the events, sends a test, shows the delivery log and deletes after asking', async () => {
    const { wrapper } = await mountPage()
    await button(wrapper, 'Edit events').trigger('click')
    const editor = wrapper.find('.webhook-list fieldset')
    await editor.find('input[value="*"]').setValue(false)
    await editor.find('input[value="sign_in"]').setValue(true)
    await button(wrapper, 'Save events').trigger('click')
    await vi.waitFor(() => expect(sent('PATCH', '/api/webhooks/1')).toHaveLength(1))
    expect(sent('PATCH', '/api/webhooks/1')[0]!.json).toEqual({ events: ['sign_in'] })
    await vi.waitFor(() => expect(wrapper.find('.webhook-list').text()).toContain('sign_in'))

    await button(wrapper, 'Send test').trigger('click')
    await vi.waitFor(() => expect(sent('POST', '/api/webhooks/1/test')).toHaveLength(1))

    await button(wrapper, 'Deliveries').trigger('click')
    await vi.waitFor(() => expect(wrapper.findAll('.deliveries tbody tr')).toHaveLength(2))
    const [ok, retrying] = wrapper.findAll('.deliveries tbody tr')
    expect(ok!.text()).toContain('delivered')
    expect(retrying!.text()).toContain('retrying')
    expect(retrying!.text()).toContain('503')

    await button(wrapper, 'Delete').trigger('click')
    await flushPromises()
    expect(sent('DELETE', '/api/webhooks/1')).toHaveLength(0)
    const confirm = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Delete endpoint')!
    confirm.click()
    await vi.waitFor(() => expect(sent('DELETE', '/api/webhooks/1')).toHaveLength(1))
    await vi.waitFor(() => expect(wrapper.text()).toContain('No endpoints yet.'))
  })

  describe('every change to an endpoint asks to confirm it’s you first (step-up), then goes again', () => {
    let stepUp: ReturnType<typeof fakeStepUp>
    beforeEach(() => {
      stepUp = fakeStepUp(server)
      server.on('PATCH', '/api/webhooks/1', stepUp.guard((req) => ((endpoints = [endpoint({ events: req.json.events })]), { body: { webhook: endpoints[0] } })))
      server.on('DELETE', '/api/webhooks/1', stepUp.guard(() => ((endpoints = []), { status: 204 })))
    })
    const confirmDialog = (wrapper: VueWrapper) =>
      wrapper.findAll<HTMLDialogElement>('dialog').find((d) => d.element.open && d.find('h2').text() === 'Confirm it’s you')
    async function confirmWithPassword(wrapper: VueWrapper) {
      await vi.waitFor(() => expect(confirmDialog(wrapper)).toBeDefined())
      const dialog = confirmDialog(wrapper)!
      await dialog.find('input[name=password]').setValue('secret-password')
      await dialog.find('form').trigger('submit')
      await vi.waitFor(() => expect(stepUp.confirmed).toBe(true))
    }

    it('saving the events', async () => {
      const { wrapper } = await mountPage()
      await button(wrapper, 'Edit events').trigger('click')
      await wrapper.find('.webhook-list fieldset input[value="*"]').setValue(false)
      await wrapper.find('.webhook-list fieldset input[value="sign_in"]').setValue(true)
      await button(wrapper, 'Save events').trigger('click')
      await confirmWithPassword(wrapper)
      await vi.waitFor(() => expect(sent('PATCH', '/api/webhooks/1')).toHaveLength(2))
      await vi.waitFor(() => expect(wrapper.find('.webhook-list').text()).toContain('sign_in'))
      expect(confirmDialog(wrapper)).toBeUndefined()
    })

    it('deleting', async () => {
      const { wrapper } = await mountPage()
      await button(wrapper, 'Delete').trigger('click')
      await flushPromises()
      ;[...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Delete endpoint')!.click()
      await confirmWithPassword(wrapper)
      await vi.waitFor(() => expect(sent('DELETE', '/api/webhooks/1')).toHaveLength(2))
      await vi.waitFor(() => expect(wrapper.text()).toContain('No endpoints yet.'))
    })
  })
})
