import type { LocationQuery, RouteLocationNormalizedLoaded, RouteLocationRaw } from 'vue-router'
import { http } from '@/lib/http'
import { t, te } from '@/lib/i18n'
import { safeRedirect } from '@/lib/query'

/** A provider the server has set up, as `GET /api/auth/oauth` lists them, in the order to show. */
export interface Provider {
  provider: string
  /** What to call it: "GitHub", "Google", or the name configured for an OpenID Connect provider. */
  name: string
}

/** A provider linked to the signed-in user, as `GET /api/account/connections` lists them. */
export interface Connection {
  provider: string
  /** The address the provider gave when it was linked. */
  email: string | null
  createdAt: string
}

/** The configured providers; none when the server has none set up. */
export async function loadProviders(): Promise<Provider[]> {
  const { data } = await http.get<{ data?: Provider[] }>('/api/auth/oauth')
  return data.data ?? []
}

/**
 * Where signing in (or up) with a provider starts. A page load, not a request: the server sends
 * the browser on to the provider, which sends it back to the server, which sends it to `redirect`.
 */
export function signInUrl(provider: string, options: { redirect?: LocationQuery[string]; remember?: boolean } = {}): string {
  const query = new URLSearchParams()
  // Only our own paths; the server checks again, and without one it opens the dashboard.
  const redirect = safeRedirect(options.redirect, '')
  if (redirect) query.set('redirect', redirect)
  if (options.remember) query.set('remember', '1')
  const search = query.toString()
  return `/api/auth/oauth/${encodeURIComponent(provider)}${search ? `?${search}` : ''}`
}

// The server may send a code newer than this client: it still gets a sentence (`…other`).
const lookup = (group: string, code: string) => (te(`oauth.${group}.${code}`) ? t(`oauth.${group}.${code}`) : t(`oauth.${group}.other`))

/** The words for the `error` of a sign-in that came back to `/login?error=<code>`. */
export const signInError = (code: string) => lookup('signInErrors', code)

/** The words for the `error` of a linking that came back to `/settings/connections?error=<code>`. */
export const linkError = (code: string) => lookup('linkErrors', code)

/**
 * A confirmation through a provider came back to the page that asked, `?confirmed=<provider>` or
 * `?error=confirm_failed`: what to tell the user.
 */
export function confirmReturned(query: LocationQuery) {
  if (queryString(query.confirmed)) {
    return { message: t('oauth.confirmed'), kind: 'success' as const, keys: ['confirmed'] }
  }
  if (query.error === 'confirm_failed') {
    return {
      message: t('oauth.confirmFailed'),
      kind: 'error' as const,
      keys: ['error'],
    }
  }
  return undefined
}

/** A query value as one string, if it is one. */
export const queryString = (value: LocationQuery[string] | undefined) => (typeof value === 'string' && value ? value : undefined)

/**
 * The same page without `keys` in its query: what the server's redirect reported is shown once,
 * not again on a reload or from a bookmark.
 */
export function withoutQuery(route: RouteLocationNormalizedLoaded, ...keys: string[]): RouteLocationRaw {
  const query = { ...route.query }
  for (const key of keys) delete query[key]
  return { query, hash: route.hash }
}
