import type { Express } from 'express'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { SecurityEvent } from '../src/kernel/models/index.js'
import { unconfirm } from './helpers/confirmation.js'
import { claim, sso, type SsoApp, uniqueDomain, useSsoApp } from './helpers/sso.js'
import { newTeam, person, personalTeamOf, staffedTeam } from './helpers/teams.js'
import { useTestApps, withCookies } from './helpers/test-app.js'

const t = useTestApps()
const ssoApp = useSsoApp(t)
let app: Express
let dns: SsoApp['dns']

beforeAll(() => {
  ;({ app, dns } = ssoApp)
})

describe("a team's SSO page", () => {
  it('shows owners and admins the SP values to give the IdP, no connection yet, and the domains', async () => {
    const { owner, admin, teamId } = await staffedTeam(app)
    const domain = uniqueDomain()
    await claim(app, owner.cookies, teamId, domain)
    for (const who of [owner, admin]) {
      const res = await sso(app, who.cookies, teamId).show()
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        connection: null,
        sp: {
          entity_id: `http://localhost:3000/api/auth/sso/saml/${teamId}/metadata`,
          acs_url: `http://localhost:3000/api/auth/sso/saml/${teamId}/acs`,
          metadata_url: `http://localhost:3000/api/auth/sso/saml/${teamId}/metadata`,
          redirect_uri: `http://localhost:3000/api/auth/sso/oidc/${teamId}/callback`,
        },
        domains: [{ domain, verified: false, txt_name: `_cookie-auth.${domain}`, txt_value: expect.stringMatching(/^cookie-auth-verify=[A-Za-z0-9_-]{32}$/) }],
      })
    }
  })

  it('is 403 to a member and 404 to anyone outside the team', async () => {
    const { member, outsider, teamId } = await staffedTeam(app)
    expect((await sso(app, member.cookies, teamId).show()).status).toBe(403)
    expect((await sso(app, outsider.cookies, teamId).show()).status).toBe(404)
  })
})

describe('claiming a domain', () => {
  it('is for owners (an admin 403, an outsider 404), behind step-up', async () => {
    const { owner, admin, outsider, teamId } = await staffedTeam(app)
    expect((await sso(app, admin.cookies, teamId).addDomain(uniqueDomain())).status).toBe(403)
    expect((await sso(app, outsider.cookies, teamId).addDomain(uniqueDomain())).status).toBe(404)
    await unconfirm(owner.id)
    const unconfirmed = await sso(app, owner.cookies, teamId).addDomain(uniqueDomain())
    expect(unconfirmed.status).toBe(403)
    expect(unconfirmed.body.errors).toEqual({ confirm: [expect.any(String)] })
  })

  it('answers 201 with a fresh TXT record, the name kept lower case and without a trailing dot', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const domain = uniqueDomain()
    const res = await sso(app, owner.cookies, teamId).addDomain(`${domain.toUpperCase()}.`)
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ domain, verified: false, txt_name: `_cookie-auth.${domain}`, txt_value: expect.stringMatching(/^cookie-auth-verify=/) })
    const other = await claim(app, owner.cookies, teamId, uniqueDomain())
    expect(other.txt_value).not.toBe(res.body.txt_value)
    const event = await SecurityEvent.findOne({ where: { userId: owner.id, type: 'sso_domain_added' }, order: [['id', 'DESC']] })
    expect(JSON.parse(event!.meta!)).toEqual({ teamId, domain: other.domain })
    // In the team's activity, beside the teams' own events; not in another team's.
    const activity = await supertest(app).get(`/api/teams/${teamId}/activity`).set(withCookies(owner.cookies))
    expect(activity.status).toBe(200)
    expect(activity.body.data.data.map((row: { type: string }) => row.type)).toEqual(['sso_domain_added', 'sso_domain_added', 'team_created'])
    const otherTeam = await newTeam(app, owner)
    const elsewhere = await supertest(app).get(`/api/teams/${otherTeam}/activity`).set(withCookies(owner.cookies))
    expect(elsewhere.body.data.data.map((row: { type: string }) => row.type)).toEqual(['team_created'])
  })

  it.each(['', 'localhost', '127.0.0.1', '*.example.com', 'exa mple.com', '-bad.example.com', `${'a'.repeat(64)}.com`, 42])('refuses %j with 422 errors.domain', async (domain) => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const res = await sso(app, owner.cookies, teamId).addDomain(domain)
    expect(res.status).toBe(422)
    expect(Object.keys(res.body.errors)).toEqual(['domain'])
  })

  it('takes an internationalised name in its ASCII form', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const domain = uniqueDomain()
    expect((await sso(app, owner.cookies, teamId).addDomain(`Bücher.${domain}`)).body.domain).toBe(`xn--bcher-kva.${domain}`)
  })

  it('refuses a personal team, and a domain the team has added already', async () => {
    const owner = await person(app, 'owner')
    const personal = await personalTeamOf(owner.id)
    expect((await sso(app, owner.cookies, personal.id).addDomain(uniqueDomain())).status).toBe(422)
    const teamId = await newTeam(app, owner)
    const domain = uniqueDomain()
    await claim(app, owner.cookies, teamId, domain)
    const again = await sso(app, owner.cookies, teamId).addDomain(domain)
    expect(again.status).toBe(422)
    expect(Object.keys(again.body.errors)).toEqual(['domain'])
  })
})

describe('verifying a domain', () => {
  it('finds the TXT record at _cookie-auth.<domain> through SSO_DNS_SERVER and marks the domain verified', async () => {
    const owner = await person(app, 'owner')
    const teamId = await newTeam(app, owner)
    const record = await claim(app, owner.cookies, teamId, uniqueDomain())
    const early = await sso(app, owner.cookies, teamId).verify(record.domain)
    expect(early.status).toBe(422)
    expect(Object.keys(early.body.errors)).toEqual(['domain'])
    expect(dns.asked).toContain(record.txt_name)

    dns.publish(record.txt_name, 'v=spf1 -all')
    dns.publish(record.txt_name, record.txt_value)
    const res = await sso(app, owner.cookies, teamId).verify(record.domain)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ verified: true })
    expect((await sso(app, owner.cookies, teamId).show()).body.domains).toEqual([{ ...record, verified: true }])
    expect(await SecurityEvent.count({ where: { userId: owner.id, type: 'sso_domain_verified' } })).toBe(1)
    // Asked again, it stays verified and records nothing more.
    expect((await sso(app, owner.cookies, teamId).verify(record.domain)).status).toBe(200)
    expect(await SecurityEvent.count({ where: { userId: owner.id, type: 'sso_domain_verified' } })).toBe(1)
  })

  it("refuses another team's value, a domain the team has not added, and anyone but an owner", async () => {
    const { owner, admin, outsider, teamId } = await staffedTeam(app)
    const record = await claim(app, owner.cookies, teamId, uniqueDomain())
    dns.publish(record.txt_name, 'cookie-auth-verify=someone-elses')
    expect((await sso(app, owner.cookies, teamId).verify(record.domain)).status).toBe(422)
    expect((await sso(app, owner.cookies, teamId).verify(uniqueDomain())).status).toBe(422)
    dns.publish(record.txt_name, record.txt_value)
    expect((await sso(app, admin.cookies, teamId).verify(record.domain)).status).toBe(403)
    expect((await sso(app, outsider.cookies, teamId).verify(record.domain)).status).toBe(404)
    expect((await sso(app, owner.cookies, teamId).verify(record.domain)).status).toBe(200)
  })

  it('gives a domain to one team only: once verified, another team can neither claim nor verify it', async () => {
    const [first, second] = [await person(app, 'first'), await person(app, 'second')]
    const [one, two] = [await newTeam(app, first), await newTeam(app, second)]
    const domain = uniqueDomain()
    const theirs = await claim(app, first.cookies, one, domain)
    const ours = await claim(app, second.cookies, two, domain)
    dns.publish(theirs.txt_name, theirs.txt_value)
    dns.publish(ours.txt_name, ours.txt_value)
    expect((await sso(app, first.cookies, one).verify(domain)).status).toBe(200)

    const late = await sso(app, second.cookies, two).verify(domain)
    expect(late.status).toBe(422)
    expect(Object.keys(late.body.errors)).toEqual(['domain'])
    const claimed = await sso(app, second.cookies, two).addDomain(domain)
    expect(claimed.status).toBe(422)
    expect(Object.keys(claimed.body.errors)).toEqual(['domain'])
  })
})
