import { afterAll, afterEach } from 'vitest'
import { takeRefusals } from '../helpers/loopback-only.js'

// The app often goes on when a call out fails (the breached-password check without its answer, a
// webhook delivery retried later), so a refusal fails the test it happened in, naming the host.
function noneRefused(): void {
  const refused = takeRefusals()
  if (refused.length > 0) throw new Error(`Tests keep their traffic on loopback (127.0.0.0/8, ::1, localhost); refused: ${refused.join(', ')}`)
}

afterEach(noneRefused)
afterAll(noneRefused)
