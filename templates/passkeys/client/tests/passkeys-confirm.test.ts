import { enableAutoUnmount, type DOMWrapper, type VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { http } from '@/lib/http'
import { isHttpError } from '@/plugins/visit'
import { authenticationResponse, domError, webauthn, WebAuthnAbortService } from './support/fake-webauthn'
import { startServer, type TestServer } from './support/server'
import { mountApp, user } from './support/mount-app'
import { fakeStepUp } from './support/confirm-its-you'

vi.mock('@simplewebauthn/browser', () => import('./support/fake-webauthn'))

let server: TestServer
let stepUp: ReturnType<typeof fakeStepUp>

const REQUEST_OPTIONS = { challenge: 'confirm-1', rpId: 'localhost', userVerification: 'required', allowCredentials: [{ id: 'cred-1', type: 'public-key' }] }

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  webauthn.reset()
  stepUp = fakeStepUp(server, ['password', 'passkey'])
  server.on('GET', '/api/auth/me', { body: { user: user({ name: 'Ann', role: 'user' }) } })
  server.on('POST', '/api/account/confirm/passkey/options', { body: REQUEST_OPTIONS })
  server.on('POST', '/api/account/confirm/passkey', (req) =>
    req.json?.response?.id === 'cred-1'
      ? stepUp.confirm()
      : { status: 422, body: { message: 'Invalid.', errors: { passkey: ['This passkey could not confirm it’s you.'] } } },
  )
  server.on('DELETE', '/api/account/sessions', stepUp.guard(() => ({ status: 204 })))
})

const sent = (method: string, path: string) => server.received.filter((r) => r.method === method && r.path === path)
const confirmDialog = (wrapper: VueWrapper) =>
  wrapper.findAll<HTMLDialogElement>('dialog').find((d) => d.element.open && d.find('h2').text() === 'Confirm it’s you')
const passkeyButton = (dialog: DOMWrapper<Element>) => dialog.findAll('button').find((b) => /passkey/i.test(b.text()))

/** A guarded request from the dashboard, refused: the dialog opens. */
async function refused() {
  const { wrapper } = await mountApp(server, '/dashboard')
  const call = http.request({ url: '/api/account/sessions', method: 'delete' })
  // Settled, so that a test that never answers the dialog ends without a stray rejection.
  const outcome = call.then(
    (response) => response.status,
    (error: unknown) => (isHttpError(error) ? error.response?.status : error),
  )
  await vi.waitFor(() => expect(confirmDialog(wrapper)).toBeDefined())
  return { wrapper, dialog: confirmDialog(wrapper)!, outcome }
}

async function usePasskey(dialog: DOMWrapper<HTMLDialogElement>) {
  await passkeyButton(dialog)!.trigger('click')
  await vi.waitFor(() => expect(webauthn.ceremonies).toHaveLength(1))
  return webauthn.last()
}

describe('confirm it’s you with a passkey', () => {
  it('asks the browser with the API’s challenge, sends the answer, and the request goes again', async () => {
    const { wrapper, dialog, outcome } = await refused()
    expect(passkeyButton(dialog)!.text()).toBe('Use a passkey')
    const prompt = await usePasskey(dialog)
    expect(prompt.kind).toBe('get')
    expect(prompt.autofill).toBe(false)
    expect(prompt.optionsJSON).toEqual(REQUEST_OPTIONS)
    await vi.waitFor(() => expect(passkeyButton(dialog)!.text()).toBe('Waiting for your passkey…'))

    prompt.resolve(authenticationResponse())
    expect(await outcome).toBe(204)
    expect(sent('POST', '/api/account/confirm/passkey').map((r) => r.json)).toEqual([{ response: authenticationResponse() }])
    expect(sent('DELETE', '/api/account/sessions')).toHaveLength(2)
    expect(confirmDialog(wrapper)).toBeUndefined()
  })

  it('a prompt closed without a passkey says so, and the dialog stays for another way', async () => {
    const { wrapper, dialog } = await refused()
    const prompt = await usePasskey(dialog)
    prompt.reject(domError('NotAllowedError'))
    await vi.waitFor(() => expect(dialog.find('[role=status]').text()).toBe('No passkey was used. Try again, or confirm another way.'))
    expect(passkeyButton(dialog)!.text()).toBe('Use a passkey')
    expect(confirmDialog(wrapper)).toBeDefined()
    expect(sent('POST', '/api/account/confirm/passkey')).toHaveLength(0)
  })

  it('shows why the API refused the passkey', async () => {
    const { wrapper, dialog } = await refused()
    const prompt = await usePasskey(dialog)
    prompt.resolve(authenticationResponse('cred-other'))
    await vi.waitFor(() => expect(dialog.find('[role=alert]').text()).toBe('This passkey could not confirm it’s you.'))
    expect(confirmDialog(wrapper)).toBeDefined()
    expect(sent('DELETE', '/api/account/sessions')).toHaveLength(1)
  })

  it('Cancel while the browser’s prompt is up ends the prompt too', async () => {
    const { dialog, outcome } = await refused()
    const prompt = await usePasskey(dialog)
    await dialog.findAll('button').find((b) => b.text() === 'Cancel')!.trigger('click')
    expect(await outcome).toBe(403)
    expect(WebAuthnAbortService.cancelCeremony).toHaveBeenCalled()
    expect(prompt.settled).toBe(true)
  })

  it('is not offered where the browser has no WebAuthn', async () => {
    webauthn.supported = false
    const { dialog } = await refused()
    expect(dialog.find('input[name=password]').exists()).toBe(true)
    expect(passkeyButton(dialog)).toBeUndefined()
  })
})
