import type { Received, Reply, TestServer } from './server'

const MESSAGE = 'Confirm it’s you to continue.'

/** The API's refusal of a sensitive request on a session not confirmed lately. */
export const confirmRequired: Reply = { status: 403, body: { message: MESSAGE, errors: { confirm: [MESSAGE] } } }

const wrongPassword: Reply = { status: 422, body: { message: 'Invalid.', errors: { password: ['The password is incorrect.'] } } }

/**
 * The API's step-up on the test server: the session starts unconfirmed, `GET /api/account/confirm`
 * lists `methods`, and the password `secret-password` confirms. `guard` wraps a route so that it
 * answers 403 until then. Tests of another method mark the session with `confirm()` themselves.
 */
export function fakeStepUp(server: TestServer, methods: string[] = ['password']) {
  let until: string | null = null
  const confirm = (): Reply => {
    until = new Date(Date.now() + 15 * 60_000).toISOString()
    return { body: { confirmed_until: until } }
  }
  server.on('GET', '/api/account/confirm', () => ({ body: { confirmed_until: until, methods } }))
  server.on('POST', '/api/account/confirm', (req) => (req.json?.password === 'secret-password' ? confirm() : wrongPassword))
  return {
    confirm,
    get confirmed() {
      return until !== null
    },
    guard: (answer: (req: Received) => Reply) => (req: Received) => (until ? answer(req) : confirmRequired),
  }
}
