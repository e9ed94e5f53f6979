import { vi } from 'vitest'

// happy-dom has no WebAuthn, so the client tests swap @simplewebauthn/browser for this stand-in
// (`vi.mock('@simplewebauthn/browser', () => import('./support/fake-webauthn'))`). It keeps the
// library's one rule the pages rely on: one ceremony at a time, a new one aborting the one
// waiting, as its WebAuthnAbortService does. The browser test runs the real thing.

export interface Ceremony {
  kind: 'get' | 'create'
  optionsJSON: { challenge: string }
  autofill: boolean
  settled: boolean
  resolve(response: unknown): void
  reject(error: Error): void
}

export const webauthn = {
  supported: true,
  autofill: true,
  ceremonies: [] as Ceremony[],
  reset() {
    this.supported = true
    this.autofill = true
    this.ceremonies = []
    waiting = null
    startAuthentication.mockClear()
    startRegistration.mockClear()
    WebAuthnAbortService.cancelCeremony.mockClear()
  },
  /** The newest ceremony, to answer it as the browser would. */
  last(): Ceremony {
    const ceremony = this.ceremonies.at(-1)
    if (!ceremony) throw new Error('No ceremony was started.')
    return ceremony
  },
}

/** An error as browsers name them: NotAllowedError for a closed prompt, AbortError, InvalidStateError. */
export const domError = (name: string, message = name) => Object.assign(new Error(message), { name })

let waiting: Ceremony | null = null

function begin(kind: Ceremony['kind'], optionsJSON: Ceremony['optionsJSON'], autofill: boolean) {
  if (waiting && !waiting.settled) waiting.reject(domError('AbortError', 'Cancelling existing WebAuthn API call for new one'))
  return new Promise((resolve, reject) => {
    const ceremony: Ceremony = {
      kind,
      optionsJSON,
      autofill,
      settled: false,
      resolve: (response) => ((ceremony.settled = true), resolve(response)),
      reject: (error) => ((ceremony.settled = true), reject(error)),
    }
    webauthn.ceremonies.push(ceremony)
    waiting = ceremony
  })
}

export const browserSupportsWebAuthn = () => webauthn.supported
export const browserSupportsWebAuthnAutofill = async () => webauthn.supported && webauthn.autofill

export const startAuthentication = vi.fn(
  (options: { optionsJSON: Ceremony['optionsJSON']; useBrowserAutofill?: boolean }) =>
    begin('get', options.optionsJSON, options.useBrowserAutofill ?? false),
)

export const startRegistration = vi.fn((options: { optionsJSON: Ceremony['optionsJSON'] }) => begin('create', options.optionsJSON, false))

export const WebAuthnAbortService = {
  cancelCeremony: vi.fn(() => {
    if (waiting && !waiting.settled) waiting.reject(domError('AbortError', 'Manually cancelling existing WebAuthn API call'))
    waiting = null
  }),
}

/** What the browser's answers look like once serialised; the fake API only checks they arrive. */
export const authenticationResponse = (id = 'cred-1') => ({
  id,
  rawId: id,
  type: 'public-key',
  response: { clientDataJSON: 'Y2xpZW50', authenticatorData: 'YXV0aA', signature: 'c2ln', userHandle: 'dXNlcg' },
  clientExtensionResults: {},
})

export const registrationResponse = (id = 'cred-new') => ({
  id,
  rawId: id,
  type: 'public-key',
  response: { clientDataJSON: 'Y2xpZW50', attestationObject: 'YXR0', transports: ['internal'] },
  clientExtensionResults: {},
})
