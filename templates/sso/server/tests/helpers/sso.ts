import type { Express } from 'express'
import supertest from 'supertest'
import { afterAll, beforeAll, expect } from 'vitest'
import { startDnsServer } from './dns-server.js'
import { requestIdOf, samlIdp } from './saml-idp.js'
import { newTeam, person, type Cookies } from './teams.js'
import { type MemoryLogger, type TestApp, type TestAppOptions, type useTestApps, withCookies } from './test-app.js'

/** An app of an SSO test file, with the DNS stand-in its domain checks ask. */
export type SsoApp = TestApp & { logger: MemoryLogger; dns: Awaited<ReturnType<typeof startDnsServer>> }

/**
 * What every SSO test file sets up: a DNS stand-in (SSO_DNS_SERVER) and, before the file's
 * tests, an app that asks it, with no e-mail verification in the way. Its fields are there from
 * the first test (or a later beforeAll) on; `build` makes another such app (on Redis, say).
 */
export function useSsoApp(t: ReturnType<typeof useTestApps>, options: TestAppOptions = {}) {
  const built = {} as SsoApp & { build(more?: TestAppOptions): Promise<SsoApp> }
  built.build = async (more = {}) => ({
    ...(await t.build({ auth: { requireEmailVerification: false }, ...options, ...more, env: { SSO_DNS_SERVER: built.dns.address, ...options.env, ...more.env } })),
    dns: built.dns,
  })
  beforeAll(async () => {
    built.dns = await startDnsServer()
    Object.assign(built, await built.build())
  })
  afterAll(() => built.dns?.close())
  return built
}

/** The SSO routes of a team, with a browser's cookie jar. */
export const sso = (app: Express, cookies: Cookies, teamId: number | string) => ({
  show: () => supertest(app).get(`/api/teams/${teamId}/sso`).set(withCookies(cookies)),
  addDomain: (domain: unknown) => supertest(app).post(`/api/teams/${teamId}/domains`).set(withCookies(cookies)).send({ domain }),
  verify: (domain: string) => supertest(app).post(`/api/teams/${teamId}/domains/${encodeURIComponent(domain)}/verify`).set(withCookies(cookies)),
  connect: (body: object) => supertest(app).put(`/api/teams/${teamId}/sso`).set(withCookies(cookies)).send(body),
  disconnect: () => supertest(app).delete(`/api/teams/${teamId}/sso`).set(withCookies(cookies)),
})

/** A new random domain under `.test`, so that tests sharing a database never claim each other's. */
export const uniqueDomain = (tag = 'acme') => `${tag}-${Math.random().toString(36).slice(2, 10)}.test`

/** Claims `domain` for the team through the API and answers its TXT record. */
export async function claim(app: Express, cookies: Cookies, teamId: number, domain: string) {
  const res = await sso(app, cookies, teamId).addDomain(domain)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { domain: string; verified: boolean; txt_name: string; txt_value: string }
}

/** Claims and verifies `domain` for the team, publishing its TXT record on the DNS stand-in. */
export async function verifiedDomain(app: Express, dns: Awaited<ReturnType<typeof startDnsServer>>, cookies: Cookies, teamId: number, domain = uniqueDomain()) {
  const record = await claim(app, cookies, teamId, domain)
  dns.publish(record.txt_name, record.txt_value)
  expect((await sso(app, cookies, teamId).verify(domain)).status).toBe(200)
  return domain
}

/**
 * A team with a verified domain and a SAML connection to a fresh IdP stand-in, set up through
 * the API by its owner; `connection` overrides the PUT's body.
 */
export async function samlTeam(app: Express, dns: Awaited<ReturnType<typeof startDnsServer>>, connection: object = {}) {
  const owner = await person(app, 'owner')
  const teamId = await newTeam(app, owner)
  const domain = await verifiedDomain(app, dns, owner.cookies, teamId)
  const idp = samlIdp()
  const res = await sso(app, owner.cookies, teamId).connect({ type: 'saml', idp_metadata_xml: idp.metadata, ...connection })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  const sp = (await sso(app, owner.cookies, teamId).show()).body.sp as { entity_id: string; acs_url: string; metadata_url: string }
  return { owner, teamId, domain, idp, sp, email: (local = Math.random().toString(36).slice(2, 10)) => `${local}@${domain}` }
}

/** "Continue with SSO" for `email`: the IdP's URL, and the id of the request the answer must be to. */
export async function startSso(app: Express, email: string) {
  const res = await supertest(app).post('/api/auth/sso').send({ email })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return { redirect: res.body.redirect as string, requestId: requestIdOf(res.body.redirect) }
}

/** The browser posting the IdP's answer to the team's ACS, as the IdP's page makes it. */
export const postAnswer = (app: Express, teamId: number, samlResponse: string, cookies: Cookies = {}) =>
  supertest(app).post(`/api/auth/sso/saml/${teamId}/acs`).set(withCookies(cookies)).set('Origin', 'https://idp.example.test').type('form').send({ SAMLResponse: samlResponse })
