import axios, { isAxiosError } from 'axios'
import type { Router } from 'vue-router'

// The API is same-origin (Vite proxies /api in development); its cookies carry the session.
export const http = axios.create({
  withCredentials: true,
  headers: { Accept: 'application/json' },
})

/**
 * A 401 from anything but the auth endpoints means the session ended while the page was open:
 * forget the user and sign in again, then come back to where the user was.
 */
export function redirectOnUnauthenticated(router: Router, signedOut: () => void): () => void {
  const id = http.interceptors.response.use(undefined, (error) => {
    const url = String(error?.config?.url ?? '')
    if (error?.response?.status === 401 && !url.startsWith('/api/auth/')) {
      signedOut()
      const here = router.currentRoute.value
      if (here.name !== 'login') void router.push({ name: 'login', query: { redirect: here.fullPath } })
    }
    return Promise.reject(error)
  })
  return () => http.interceptors.response.eject(id)
}

/** The one line to show when a failure has no field errors. */
export function errorMessage(error: unknown): string {
  if (!isAxiosError(error)) return 'Something went wrong.'
  if (!error.response) return 'The server cannot be reached. Check your connection and try again.'
  const message = (error.response.data as { message?: unknown } | undefined)?.message
  return typeof message === 'string' && message ? message : `Request failed (${error.response.status}).`
}
