import type { Page } from 'playwright-core'
import { expect } from 'vitest'

/**
 * Until the API no longer counts this browser's session as confirmed: a sign-in (or a password
 * given with a request) confirms it for CONFIRM_TTL, which the browser tests of the "Confirm it's
 * you" dialog set short. Read from the API rather than slept, so it holds on a slow machine too.
 */
export async function waitUntilUnconfirmed(page: Page, baseUrl: string): Promise<void> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const answer = await page.request.get(`${baseUrl}/api/account/confirm`)
    expect(answer.status()).toBe(200)
    const { confirmed_until: until } = (await answer.json()) as { confirmed_until: string | null }
    if (until === null) return
    if (Date.now() > deadline) throw new Error(`The session is still confirmed until ${until}.`)
    await new Promise((resolve) => setTimeout(resolve, Math.min(1000, Math.max(50, Date.parse(until) - Date.now() + 50))))
  }
}
