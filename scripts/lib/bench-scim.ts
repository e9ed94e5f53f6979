/**
 * bench:app's SCIM row, for a variant with --sso: the big team's owner (user1) makes a SCIM token
 * through the API (a fresh confirmation first, as the route asks), and an IdP's most frequent
 * question, "is this person already there?" (`GET /scim/v2/Users?filter=userName eq "…"`), is
 * asked one request after the other for a member in the middle of the 10,000, among 100,000 users.
 */
import { BIG_TEAM_MEMBERS, BIG_TEAM_NAME } from './seed-teams.js'
import { wrk, type WrkResult } from './wrk.js'

export async function scimFilterRun(base: string, cookie: string, password: string, seconds: number): Promise<{ run: WrkResult; userName: string }> {
  const call = async (method: string, path: string, body?: object) => {
    const res = await fetch(`${base}${path}`, { method, headers: { Cookie: cookie, 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) })
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
    return res.json() as Promise<Record<string, unknown>>
  }
  const teams = (await call('GET', '/api/teams')) as { data: { id: number; name: string }[] }
  const big = teams.data.find((team) => team.name === BIG_TEAM_NAME)
  if (!big) throw new Error(`GET /api/teams: no team ${BIG_TEAM_NAME}`)
  await call('POST', '/api/account/confirm', { password })
  const { token } = (await call('POST', `/api/teams/${big.id}/scim-tokens`)) as { token?: unknown }
  if (typeof token !== 'string') throw new Error('POST /api/teams/:id/scim-tokens answered no token')
  // The members are user1 to user10000 (seed-teams.ts): one in the middle.
  const userName = `user${BIG_TEAM_MEMBERS / 2}@example.test`
  const url = `${base}/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`
  const check = await fetch(url, { headers: { Authorization: `Bearer ${token}` } })
  const found = (await check.json()) as { totalResults?: number }
  if (check.status !== 200 || found.totalResults !== 1) throw new Error(`GET ${url}: ${check.status}, totalResults ${found.totalResults}`)
  const run = await wrk(url, { connections: 1, seconds: Math.max(3, seconds / 2), headers: { Authorization: `Bearer ${token}` } })
  return { run, userName }
}
