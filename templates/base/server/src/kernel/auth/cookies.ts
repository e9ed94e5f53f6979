import { parseCookie } from 'cookie'
import { sign, unsign } from 'cookie-signature'
import type { CookieOptions, Request, Response } from 'express'
import type { AppSettings } from '../config/settings.js'
import type { TokenKeys } from './token-keys.js'
import { memoPerKey } from '../services/verified-memo.js'

/**
 * With COOKIE_HOST_PREFIX=true in production the names start with `__Host-`: a browser accepts
 * such a cookie only from this very host, Secure, for Path=/ and without Domain, so a sibling
 * subdomain cannot plant (toss) a cookie of the same name that would be read before ours.
 */
function cookieName(settings: CookieNameSettings, suffix: string): string {
  const prefix = settings.env.COOKIE_HOST_PREFIX && settings.env.NODE_ENV === 'production' ? '__Host-' : ''
  return `${prefix}${settings.auth.name}_${suffix}`
}

export type CookieNameSettings = Pick<AppSettings, 'features'> & { auth: Pick<AppSettings['auth'], 'name'>; env: Pick<AppSettings['env'], 'COOKIE_HOST_PREFIX' | 'NODE_ENV'> }

/**
 * Base's cookies. `cookieNames` also names each feature layer's (given, with its suffix, in its
 * `config.ts`): a slice reads its own through kernel/own-settings.ts `cookieNamesOf`.
 */
export interface CookieNames {
  access: string
  refresh: string
  session: string
}

/** Every cookie of the app by name, with its suffix: base's and the feature layers'; worked out once per list of layers. */
const suffixesOf = new WeakMap<AppSettings['features'], Array<[string, string]>>()

function suffixes(features: AppSettings['features']): Array<[string, string]> {
  let found = suffixesOf.get(features)
  if (!found) {
    found = Object.entries(Object.assign({ access: 'access', refresh: 'refresh', session: 'session' }, ...features.map((feature) => feature.config?.cookies)))
    suffixesOf.set(features, found)
  }
  return found
}

/** Every cookie of the app by name, base's typed and the layers' by their names. */
export function cookieNames(settings: CookieNameSettings): CookieNames & Readonly<Record<string, string>> {
  const names: Record<string, string> = Object.fromEntries(suffixes(settings.features).map(([name, suffix]) => [name, cookieName(settings, suffix)]))
  return { ...names, access: cookieName(settings, 'access'), refresh: cookieName(settings, 'refresh'), session: cookieName(settings, 'session') }
}

/** The attributes every cookie of the app is set and cleared with. */
export function cookieAttributes(settings: Pick<AppSettings, 'env'>): CookieOptions {
  const sameSite = settings.env.COOKIE_SAMESITE
  return {
    httpOnly: true,
    path: '/',
    sameSite,
    // Browsers drop SameSite=None cookies that are not Secure.
    secure: settings.env.NODE_ENV === 'production' || sameSite === 'none',
  }
}

/**
 * One Set-Cookie per name and response: when a request renews a cookie and then replaces or
 * clears it (a renewed access token on the way to logout), only the last word is sent.
 */
function dropPendingCookie(res: Response, name: string): void {
  const header = res.getHeader('Set-Cookie')
  if (header === undefined) return
  const kept = ([] as string[]).concat(header as string | string[]).filter((line) => !line.startsWith(`${name}=`))
  if (kept.length > 0) res.setHeader('Set-Cookie', kept)
  else res.removeHeader('Set-Cookie')
}

/**
 * Signed as Express signs (`s:` + value + `.` + HMAC-SHA256, cookie-signature), with the key
 * object built once from COOKIE_SECRET: given the string, every HMAC would import the key anew.
 */
export function setCookie(res: Response, ctx: Pick<AppSettings, 'env'> & { keys: TokenKeys }, name: string, value: string, maxAgeSeconds: number): void {
  dropPendingCookie(res, name)
  res.cookie(name, `s:${sign(value, ctx.keys.cookie)}`, { ...cookieAttributes(ctx), maxAge: maxAgeSeconds * 1000 })
}

/**
 * Deletes a cookie with the attributes it was set with, saying so both ways: `Max-Age=0` and an
 * `Expires` in 1970 (res.clearCookie would only give the latter).
 */
export function clearCookie(res: Response, settings: Pick<AppSettings, 'env'>, name: string): void {
  dropPendingCookie(res, name)
  const attributes = cookieAttributes(settings)
  const parts = [`${name}=`, 'Max-Age=0', `Path=${attributes.path}`, 'Expires=Thu, 01 Jan 1970 00:00:00 GMT', 'HttpOnly']
  if (attributes.secure) parts.push('Secure')
  parts.push(`SameSite=${attributes.sameSite === 'none' ? 'None' : 'Lax'}`)
  res.append('Set-Cookie', parts.join('; '))
}

export function clearAuthCookies(res: Response, settings: Pick<AppSettings, 'env' | 'auth' | 'features'>): void {
  const names = cookieNames(settings)
  for (const name of [names.access, names.refresh]) clearCookie(res, settings, name)
}

/**
 * The request's cookies, parsed when first asked for and kept on `req.cookies`, so no cookie
 * middleware has to run first: `authenticate` works on any router. Plain `cookie` rather than
 * cookie-parser, whose signed and JSON cookie maps nothing here reads: building them cost /me
 * 6 % of its throughput. Signatures are checked per cookie by readSignedCookie.
 */
export function requestCookies(req: Request): Record<string, unknown> {
  return (req.cookies ??= req.headers.cookie ? parseCookie(req.headers.cookie) : {})
}

/**
 * Checks the signature of one cookie when it is read, so a request pays only for the cookies it
 * uses (unsign compares in constant time). A cookie sent with a bad signature, or unsigned,
 * counts as present but unusable: it must not be mistaken for a missing one.
 */
export function readSignedCookie(req: Request, ctx: { keys: TokenKeys }, name: string): { present: boolean; value: string | null } {
  const raw = requestCookies(req)[name]
  if (raw === undefined) return { present: false, value: null }
  // typeof: another middleware (cookie-parser's JSON cookies) may have filled req.cookies first.
  if (typeof raw !== 'string' || !raw.startsWith('s:')) return { present: true, value: null }
  const memo = unsignedCookies(ctx.keys.cookie)
  const known = memo.get(raw)
  if (known !== undefined) return { present: true, value: known }
  const value = unsign(raw.slice(2), ctx.keys.cookie)
  if (value === false) return { present: true, value: null }
  memo.set(raw, value)
  return { present: true, value }
}

/** Values of cookies whose signature checked out (kernel/services/verified-memo.ts). */
const unsignedCookies = memoPerKey<string>()
