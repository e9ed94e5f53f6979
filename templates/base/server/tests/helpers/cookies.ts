import { createHmac } from 'node:crypto'
import type { Response } from 'supertest'

export interface SetCookie {
  name: string
  /** The value exactly as sent (URL-encoded, signed): what a browser sends back. */
  raw: string
  attributes: Record<string, string | true>
  maxAge: number | undefined
  /** Set to expire now: the cookie is being deleted. */
  cleared: boolean
}

export function setCookies(res: Response): Map<string, SetCookie> {
  const header = res.headers['set-cookie'] as string[] | string | undefined
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header]
  const cookies = new Map<string, SetCookie>()
  for (const line of lines) {
    const [pair = '', ...parts] = line.split(';').map((part) => part.trim())
    const eq = pair.indexOf('=')
    const name = pair.slice(0, eq)
    const raw = pair.slice(eq + 1)
    const attributes: Record<string, string | true> = {}
    for (const part of parts) {
      const i = part.indexOf('=')
      if (i === -1) attributes[part.toLowerCase()] = true
      else attributes[part.slice(0, i).toLowerCase()] = part.slice(i + 1)
    }
    const maxAge = attributes['max-age'] === undefined ? undefined : Number(attributes['max-age'])
    const expires = typeof attributes.expires === 'string' ? Date.parse(attributes.expires) : NaN
    const cleared = raw === '' || maxAge === 0 || (!Number.isNaN(expires) && expires <= Date.now())
    cookies.set(name, { name, raw, attributes, maxAge, cleared })
  }
  return cookies
}

/** A browser-like cookie jar: the cookies a response left set, merged over the previous ones. */
export function jar(res: Response, previous: Record<string, string> = {}): Record<string, string> {
  const next = { ...previous }
  for (const cookie of setCookies(res).values()) {
    if (cookie.cleared) delete next[cookie.name]
    else next[cookie.name] = cookie.raw
  }
  return next
}

export const cookieHeader = (cookies: Record<string, string>) =>
  Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ')

/** The payload of a signed cookie value (`s:<value>.<signature>`). */
export function unsign(raw: string): string {
  const decoded = decodeURIComponent(raw)
  if (!decoded.startsWith('s:')) throw new Error(`not a signed cookie: ${decoded}`)
  return decoded.slice(2, decoded.lastIndexOf('.'))
}

/** Signs a value the way kernel/auth/cookies.ts checks it (cookie-signature), for planting crafted tokens. */
export function sign(value: string, secret: string): string {
  const signature = createHmac('sha256', secret).update(value).digest('base64').replace(/=+$/, '')
  return encodeURIComponent(`s:${value}.${signature}`)
}
