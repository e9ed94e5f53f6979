import type { Router } from 'vue-router'
import { createHttp, isHttpError } from '@/plugins/visit'
import { confirmItsYou } from './confirm-its-you'
import { t } from './i18n'

// The API is same-origin (Vite proxies /api in development); its cookies carry the session. A
// sensitive request it refuses until the user confirms it's them opens the dialog, then goes again.
export const http = createHttp({ confirm: confirmItsYou })

/**
 * A 401 from anything but the auth endpoints means the session ended while the page was open:
 * forget the user and sign in again, then come back to where the user was.
 */
export function redirectOnUnauthenticated(router: Router, signedOut: () => void): () => void {
  return http.onError((error) => {
    if (error.response?.status === 401 && !error.request.url.startsWith('/api/auth/')) {
      signedOut()
      const here = router.currentRoute.value
      if (here.name !== 'login') void router.push({ name: 'login', query: { redirect: here.fullPath } })
    }
  })
}

/** The one line to show when a failure has no field errors. */
export function errorMessage(error: unknown): string {
  if (!isHttpError(error)) return t('errors.generic')
  if (error.timedOut) return t('errors.timeout')
  if (!error.response) return t('errors.offline')
  const message = (error.response.data as { message?: unknown } | undefined)?.message
  return typeof message === 'string' && message ? message : t('errors.status', { status: error.response.status })
}
