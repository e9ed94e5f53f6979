/**
 * Refresh load: what the third audit's faults run found answering 500 (the auth cache's loads cut
 * short by the invalidations that every rotation sends). Clients signed in as a few users, several
 * sessions each, go through the load balancer in a loop of four requests: `/me` with both cookies
 * twice, `/me` with the refresh cookie alone (the middleware renews access from the database),
 * and `POST /refresh-token` (a rotation, which invalidates every cached session of that user on
 * every instance). Each client keeps the cookies its answers set, as a browser would. It counts
 * every answer by status; the target is no 5xx at all.
 */
import { login } from './server-process.js'

export interface RefreshLoadResult {
  requests: number
  byStatus: Map<number, number>
  /** Requests that got no answer at all (a reset connection). */
  failed: number
  seconds: number
}

export async function refreshLoad(options: {
  base: string
  /** The trusted origin the API's CSRF check compares with (BASE_URL). */
  origin: string
  accounts: string[]
  password: string
  sessionsPerAccount: number
  requests: number
  cookieName: string
}): Promise<RefreshLoadResult> {
  const sessions: Array<Record<string, string>> = []
  for (const email of options.accounts) {
    for (let i = 0; i < options.sessionsPerAccount; i++) sessions.push((await login(options.base, email, options.password)).cookies)
  }
  const refreshName = `${options.cookieName}_refresh`
  const byStatus = new Map<number, number>()
  let failed = 0
  let sent = 0
  const started = performance.now()
  const client = async (cookies: Record<string, string>) => {
    for (let turn = 0; sent < options.requests; turn++) {
      sent++
      const kind = turn % 4
      const jar = kind === 2 ? { [refreshName]: cookies[refreshName]! } : cookies
      try {
        const res = await fetch(`${options.base}${kind === 3 ? '/api/auth/refresh-token' : '/api/auth/me'}`, {
          method: kind === 3 ? 'POST' : 'GET',
          headers: { Origin: options.origin, Cookie: cookieHeader(jar) },
        })
        await res.arrayBuffer()
        byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1)
        keepCookies(cookies, res.headers.getSetCookie())
      } catch {
        failed++
      }
    }
  }
  await Promise.all(sessions.map(client))
  return { requests: sent, byStatus, failed, seconds: (performance.now() - started) / 1000 }
}

function keepCookies(jar: Record<string, string>, lines: string[]) {
  for (const line of lines) {
    const [pair = ''] = line.split(';')
    const at = pair.indexOf('=')
    const value = pair.slice(at + 1)
    if (value === '' || /max-age=0/i.test(line)) delete jar[pair.slice(0, at)]
    else jar[pair.slice(0, at)] = value
  }
}

function cookieHeader(cookies: Record<string, string>): string {
  return Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ')
}
