import type { LocationQuery, RouteLocationRaw } from 'vue-router'
import { features } from '@/features'
import { safeRedirect } from '@/lib/query'
import type { User } from '@/types'

/** A sign-in answer of the API: the user, or a step another layer takes over (a second factor). */
export type SignInAnswer = { user: User } | Record<string, unknown>

/**
 * Where a finished e-mail sign-in goes, as the login page decides for a password's: a layer may
 * take the answer over (a second factor's challenge); otherwise `signedIn` is told the user and
 * the page the sign-in was asked for follows.
 */
export function afterSignIn(data: SignInAnswer, query: LocationQuery, signedIn: (user: User) => void): RouteLocationRaw {
  const takenOver = features.map((feature) => feature.afterLogin?.(data, query.redirect)).find(Boolean)
  if (takenOver) return takenOver
  signedIn((data as { user: User }).user)
  return safeRedirect(query.redirect)
}

/** How often the page that asked looks whether the link was confirmed on another device. */
export const POLL_MS = 3000
