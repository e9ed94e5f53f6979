import { z } from 'zod'
import { HttpError } from '../../../kernel/index.js'

/** The one answer that lets a request through. */
const yes = z.object({ success: z.literal(true) })

/** How long a provider may take to answer before the request is refused as if it were down. */
const TIMEOUT_MS = 5_000

/**
 * Asks Turnstile's or hCaptcha's `siteverify` (both take the same form and answer `{success}`)
 * whether the widget's answer is good. Fails closed: a provider that cannot be reached, or answers
 * anything but JSON with a 2xx, gets the request refused with a 503, never let through.
 */
export async function siteverify(url: string, secret: string, answer: string, ip: string): Promise<boolean> {
  let body: unknown
  try {
    const response = await fetch(url, {
      method: 'POST',
      body: new URLSearchParams({ secret, response: answer, remoteip: ip }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
    if (!response.ok) throw new Error(`siteverify answered ${response.status}`)
    body = await response.json()
  } catch {
    throw new HttpError(503, 'captcha.unavailable')
  }
  return yes.safeParse(body).success
}
