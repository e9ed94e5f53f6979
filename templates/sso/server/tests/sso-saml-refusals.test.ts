import type { Express } from 'express'
import { beforeAll, describe, expect, it } from 'vitest'
import { User } from '../src/kernel/models/index.js'
import { encode, type AnswerOptions } from './helpers/saml-idp.js'
import { postAnswer, samlTeam, type SsoApp, startSso, useSsoApp } from './helpers/sso.js'
import { type MemoryLogger, useTestApps } from './helpers/test-app.js'

const t = useTestApps()
const ssoApp = useSsoApp(t)
let app: Express
let logger: MemoryLogger
let dns: SsoApp['dns']
let team: Awaited<ReturnType<typeof samlTeam>>

beforeAll(async () => {
  ;({ app, logger, dns } = ssoApp)
  team = await samlTeam(app, dns)
})

/** A right answer to a fresh request for a new address of the team's domain, but for `changes`. */
async function answerFor(changes: Partial<AnswerOptions> = {}) {
  const email = changes.email ?? team.email()
  const { requestId } = await startSso(app, email)
  return { email, requestId, options: { email, inResponseTo: requestId, audience: team.sp.entity_id, recipient: team.sp.acs_url, ...changes } }
}

/** Posts the answer and checks that it signed nobody in: back to the login page, no cookie, no account; the reason it was refused, as logged. */
async function refused(samlResponse: string, email: string, teamId = team.teamId): Promise<string> {
  const before = logger.lines.length
  const res = await postAnswer(app, teamId, samlResponse)
  expect(res.status).toBe(303)
  expect(res.headers.location).toBe('/login?sso=failed')
  expect(res.headers['set-cookie'] ?? []).toEqual([])
  expect(await User.count({ where: { email } })).toBe(0)
  const record = logger.records().slice(before).find((line) => line.msg === 'sso: SAML answer refused')
  expect(record).toBeDefined()
  return String(record!.reason)
}

describe("the IdP's answers the ACS refuses", () => {
  it('an unsigned assertion', async () => {
    const { email, options } = await answerFor({ sign: 'none' })
    expect(await refused(team.idp.answer(options), email)).toMatch(/signature/i)
  })

  it('an answer signed by a key other than the metadata’s', async () => {
    const { email, options } = await answerFor({ signedByStranger: true })
    expect(await refused(team.idp.answer(options), email)).toMatch(/signature/i)
  })

  it('a signed response around an unsigned assertion (assertions must be signed themselves)', async () => {
    const { email, options } = await answerFor({ sign: 'response' })
    expect(await refused(team.idp.answer(options), email)).toMatch(/signature/i)
  })

  it('an assertion tampered with after signing', async () => {
    const { email, options } = await answerFor()
    const xml = team.idp.answerXml(options).replace(/Sam Sample/, 'Mallory')
    expect(await refused(encode(xml), email)).toMatch(/signature/i)
  })

  it('another audience', async () => {
    const { email, options } = await answerFor({ audience: 'https://elsewhere.example.test/saml' })
    expect(await refused(team.idp.answer(options), email)).toMatch(/audience/i)
  })

  it('another recipient', async () => {
    const { email, options } = await answerFor({ recipient: 'https://elsewhere.example.test/acs' })
    expect(await refused(team.idp.answer(options), email)).toMatch(/recipient/i)
  })

  it('another issuer than the IdP’s entity id', async () => {
    const { email, options } = await answerFor({ issuer: 'https://impostor.example.test/saml' })
    expect(await refused(team.idp.answer(options), email)).toMatch(/issuer/i)
  })

  it('an expired assertion, past the two minutes of clock skew', async () => {
    const { email, options } = await answerFor({ notOnOrAfter: -150 })
    expect(await refused(team.idp.answer(options), email)).toMatch(/expired|NotOnOrAfter|subject confirmation/i)
  })

  it('an assertion not valid yet, beyond the skew', async () => {
    const { email, options } = await answerFor({ notBefore: 180 })
    expect(await refused(team.idp.answer(options), email)).toMatch(/not yet valid|NotBefore/i)
  })

  it('an unsolicited answer (no InResponseTo), and one to a request the app never sent', async () => {
    const unsolicited = await answerFor({ inResponseTo: undefined })
    expect(await refused(team.idp.answer({ ...unsolicited.options, inResponseTo: undefined }), unsolicited.email)).toMatch(/InResponseTo/)
    const invented = await answerFor({ inResponseTo: '_made-up' })
    expect(await refused(team.idp.answer(invented.options), invented.email)).toMatch(/InResponseTo/)
  })

  it('an answer to a request sent for another team', async () => {
    const other = await samlTeam(app, dns)
    const { email, options } = await answerFor()
    // The other team's IdP answers our request id at the other team's ACS.
    const answer = other.idp.answer({ ...options, email: other.email(), audience: other.sp.entity_id, recipient: other.sp.acs_url })
    expect(await refused(answer, email, other.teamId)).toMatch(/InResponseTo/)
  })

  it('the same answer twice, and the same assertion id in an answer to a new request', async () => {
    const { email, options } = await answerFor({ assertionId: `_replayed-${Date.now()}` })
    const answer = team.idp.answer(options)
    expect((await postAnswer(app, team.teamId, answer)).headers.location).toBe('/')
    const before = logger.lines.length
    const again = await postAnswer(app, team.teamId, answer)
    expect(again.headers.location).toBe('/login?sso=failed')
    expect(logger.records().slice(before).some((line) => /InResponseTo/.test(String(line.reason)))).toBe(true)

    const { requestId } = await startSso(app, email)
    const replayed = await postAnswer(app, team.teamId, team.idp.answer({ ...options, inResponseTo: requestId }))
    expect(replayed.headers.location).toBe('/login?sso=failed')
    expect(logger.records().at(-1)?.reason).toBe('a replayed assertion')
  })

  it('SHA-1 signatures and digests', async () => {
    const { email, options } = await answerFor({ algorithm: 'sha1' })
    expect(await refused(team.idp.answer(options), email)).toBe('SHA-1')
  })

  it("an address of a domain the team has not verified, even one another team has", async () => {
    const other = await samlTeam(app, dns)
    const { options } = await answerFor()
    const stranger = other.email()
    expect(await refused(team.idp.answer({ ...options, email: stranger }), stranger)).toMatch(/not verified/)
  })
})

describe('signature wrapping', () => {
  it('a second, unsigned assertion beside the signed one', async () => {
    const { email, options } = await answerFor()
    const evil = team.email('evil')
    const xml = team.idp.answerXml(options)
    const unsigned = team.idp.answerXml({ ...options, email: evil, sign: 'none' }).match(/<saml:Assertion[\s\S]*<\/saml:Assertion>/)![0]
    const wrapped = xml.replace('<saml:Assertion ', `${unsigned}<saml:Assertion `)
    expect(await refused(encode(wrapped), evil)).toMatch(/more than one/)
    expect(await User.count({ where: { email } })).toBe(0)
  })

  it('the signed assertion moved into an extension, an unsigned one in its place', async () => {
    const { email, options } = await answerFor()
    const evil = team.email('evil')
    const xml = team.idp.answerXml(options)
    const signed = xml.match(/<saml:Assertion[\s\S]*<\/saml:Assertion>/)![0]
    const unsigned = team.idp.answerXml({ ...options, email: evil, sign: 'none' }).match(/<saml:Assertion[\s\S]*<\/saml:Assertion>/)![0]
    const wrapped = xml.replace(signed, `<samlp:Extensions>${signed}</samlp:Extensions>${unsigned}`)
    expect(await refused(encode(wrapped), evil)).toMatch(/more than one/)
    expect(await User.count({ where: { email } })).toBe(0)
  })

  it('the signed assertion inside the unsigned one’s Subject', async () => {
    const { email, options } = await answerFor()
    const evil = team.email('evil')
    const xml = team.idp.answerXml(options)
    const signed = xml.match(/<saml:Assertion[\s\S]*<\/saml:Assertion>/)![0]
    const unsigned = team.idp.answerXml({ ...options, email: evil, sign: 'none' }).match(/<saml:Assertion[\s\S]*<\/saml:Assertion>/)![0]
    const wrapped = xml.replace(signed, unsigned.replace('</saml:Subject>', `</saml:Subject>${signed}`))
    expect(await refused(encode(wrapped), evil)).toMatch(/more than one/)
  })

  it('a DOCTYPE (entity expansion)', async () => {
    const { email, options } = await answerFor()
    const xml = `<!DOCTYPE r [<!ENTITY e "x">]>${team.idp.answerXml(options)}`
    expect(await refused(encode(xml), email)).toBe('a DOCTYPE')
  })
})
