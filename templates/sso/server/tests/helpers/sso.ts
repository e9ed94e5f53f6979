import type { Express } from 'express'
import supertest from 'supertest'
import { expect } from 'vitest'
import { withCookies } from './test-app.js'
import type { Cookies } from './teams.js'

/** The SSO routes of a team, with a browser's cookie jar. */
export const sso = (app: Express, cookies: Cookies, teamId: number | string) => ({
  show: () => supertest(app).get(`/api/teams/${teamId}/sso`).set(withCookies(cookies)),
  addDomain: (domain: unknown) => supertest(app).post(`/api/teams/${teamId}/domains`).set(withCookies(cookies)).send({ domain }),
  verify: (domain: string) => supertest(app).post(`/api/teams/${teamId}/domains/${encodeURIComponent(domain)}/verify`).set(withCookies(cookies)),
})

/** A new random domain under `.test`, so that tests sharing a database never claim each other's. */
export const uniqueDomain = (tag = 'acme') => `${tag}-${Math.random().toString(36).slice(2, 10)}.test`

/** Claims `domain` for the team through the API and answers its TXT record. */
export async function claim(app: Express, cookies: Cookies, teamId: number, domain: string) {
  const res = await sso(app, cookies, teamId).addDomain(domain)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { domain: string; verified: boolean; txt_name: string; txt_value: string }
}
