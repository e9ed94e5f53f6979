import type { LocationQuery, RouteLocationRaw } from 'vue-router'

type QueryValue = LocationQuery[string] | undefined

/** A login answer for a user with two-factor on: the password was right, nobody is signed in yet. */
export function needsTwoFactor(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { two_factor?: unknown }).two_factor === true
}

// The page the user asked for travels along both steps; it is checked where it is finally used.
const withRedirect = (redirect: QueryValue) => (redirect == null ? {} : { redirect })

/** The second step of the sign-in. */
export function challengeLocation(redirect: QueryValue): RouteLocationRaw {
  return { name: 'two-factor-challenge', query: withRedirect(redirect) }
}

/** Back to the first step, when the challenge ran out. */
export function loginLocation(redirect: QueryValue): RouteLocationRaw {
  return { name: 'login', query: withRedirect(redirect) }
}
