import { z } from 'zod'
import { oauth } from '../settings.js'

const message = 'oauth.redirect'
const probe = 'http://probe.invalid'

/**
 * A path of this site, and only that: `//evil.example`, `/\evil.example` (which browsers read as
 * `//`), a scheme, or any control character or space would send the browser elsewhere.
 */
export function isLocalPath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//') || /[\\\s\u0000-\u001f\u007f]/.test(path)) return false
  try {
    return new URL(path, probe).origin === probe
  } catch {
    return false
  }
}

export const redirectField = z
  .string({ error: message })
  .max(oauth.redirectMaxLength, message)
  .refine(isLocalPath, message)

/** `page` with the `redirect` the sign-in was started with, for a step before it (a second factor). */
export function withRedirect(page: string, redirect: string | null): string {
  return redirect ? `${page}?${new URLSearchParams({ redirect })}` : page
}
