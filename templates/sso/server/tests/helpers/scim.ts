import type { Express } from 'express'
import supertest from 'supertest'
import { expect } from 'vitest'
import type { startDnsServer } from './dns-server.js'
import { verifiedDomain } from './sso.js'
import { newTeam, person, type Cookies } from './teams.js'
import { withCookies } from './test-app.js'

export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User'
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error'

/** The team's SCIM token routes, with a browser's cookie jar. */
export const scimTokens = (app: Express, cookies: Cookies, teamId: number | string) => ({
  create: () => supertest(app).post(`/api/teams/${teamId}/scim-tokens`).set(withCookies(cookies)),
  list: () => supertest(app).get(`/api/teams/${teamId}/scim-tokens`).set(withCookies(cookies)),
  revoke: (tokenId: number | string) => supertest(app).delete(`/api/teams/${teamId}/scim-tokens/${tokenId}`).set(withCookies(cookies)),
})

/** An IdP's SCIM client: `Authorization: Bearer <token>` on /scim/v2, bodies as application/scim+json. */
export function scimClient(app: Express, token: string | null) {
  const auth = token === null ? {} : { Authorization: `Bearer ${token}` }
  const send = (method: 'post' | 'put' | 'patch', path: string, body: unknown) =>
    supertest(app)[method](`/scim/v2${path}`).set(auth).set('Content-Type', 'application/scim+json').send(JSON.stringify(body))
  return {
    get: (path: string) => supertest(app).get(`/scim/v2${path}`).set(auth),
    post: (path: string, body: unknown) => send('post', path, body),
    put: (path: string, body: unknown) => send('put', path, body),
    patch: (path: string, body: unknown) => send('patch', path, body),
    patchOps: (path: string, ...operations: object[]) => send('patch', path, { schemas: [PATCH_OP], Operations: operations }),
    delete: (path: string) => supertest(app).delete(`/scim/v2${path}`).set(auth),
  }
}

/** Makes a SCIM token for the team through the API (the owner's session is confirmed by its sign-in). */
export async function newScimToken(app: Express, cookies: Cookies, teamId: number) {
  const res = await scimTokens(app, cookies, teamId).create()
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: number; token: string }
}

/** A team with a verified domain and a SCIM token, set up through the API by its owner. */
export async function scimTeam(app: Express, dns: Awaited<ReturnType<typeof startDnsServer>>) {
  const owner = await person(app, 'owner')
  const teamId = await newTeam(app, owner)
  const domain = await verifiedDomain(app, dns, owner.cookies, teamId)
  const { id: tokenId, token } = await newScimToken(app, owner.cookies, teamId)
  return { owner, teamId, domain, token, tokenId, scim: scimClient(app, token), email: (local = Math.random().toString(36).slice(2, 10)) => `${local}@${domain}` }
}

/** A User resource as an IdP creates it. */
export const newUser = (userName: string, extra: object = {}) => ({
  schemas: [USER_SCHEMA],
  userName,
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  emails: [{ primary: true, value: userName, type: 'work' }],
  active: true,
  ...extra,
})

/** The SCIM error body of RFC 7644 §3.12 with this status. */
export const scimErrorBody = (status: number, scimType?: string) => ({
  schemas: [ERROR_SCHEMA],
  status: String(status),
  detail: expect.any(String),
  ...(scimType ? { scimType } : {}),
})
