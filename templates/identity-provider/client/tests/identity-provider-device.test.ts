import { enableAutoUnmount, flushPromises } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { startServer, type TestServer } from './support/server'
import { mountApp, unauthenticated, user } from './support/mount-app'

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

async function mountDevice(path = '/device') {
  const app = await mountApp(server, path)
  await vi.waitFor(() => expect(app.wrapper.find('form').exists()).toBe(true))
  return app
}

describe('the device page (/device)', () => {
  it('is a plain form to the provider: the code as user_code, the whole page going', async () => {
    const { wrapper } = await mountDevice()
    expect(document.title.startsWith('Sign in on a device')).toBe(true)
    const form = wrapper.find('form')
    expect(form.attributes('method')).toBe('get')
    expect(form.attributes('action')).toBe('/oauth2/device')
    const input = form.find('input[name="user_code"]')
    expect(input.attributes('autocomplete')).toBe('off')
    expect(wrapper.find(`label[for="${input.attributes('id')}"]`).text()).toBe('Code')
    expect(form.find('button[type="submit"]').text()).toBe('Continue')
  })

  it('fills in the code of verification_uri_complete, for the person to check and send', async () => {
    const { wrapper } = await mountDevice('/device?user_code=BDFG-HJKL')
    expect((wrapper.find('input[name="user_code"]').element as HTMLInputElement).value).toBe('BDFG-HJKL')
  })

  it.each([
    ['code', 'That code is unknown, used or expired. Check it, or start again on your device.'],
    ['aborted', 'You turned the request down. Your device is not signed in.'],
  ])('says what went wrong when the provider sends the person back (?error=%s)', async (error, text) => {
    const { wrapper } = await mountDevice(`/device?error=${error}`)
    const input = wrapper.find('input[name="user_code"]')
    expect(input.attributes('aria-invalid')).toBe('true')
    expect(wrapper.find('[role="alert"]').text()).toBe(text)
  })

  it('an unknown error value shows nothing', async () => {
    const { wrapper } = await mountDevice('/device?error=<b>x</b>')
    expect(wrapper.find('[role="alert"]').exists()).toBe(false)
  })

  it('asks a signed-out person to sign in first, and comes back', async () => {
    server.on('GET', '/api/auth/me', unauthenticated)
    const { router } = await mountApp(server, '/device?user_code=BDFG-HJKL')
    await flushPromises()
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/login'))
    expect(router.currentRoute.value.query.redirect).toBe('/device?user_code=BDFG-HJKL')
  })
})
