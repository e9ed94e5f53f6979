import { DOMParser } from '@xmldom/xmldom'
import { SAML, ValidateInResponseTo, type Profile } from '@node-saml/node-saml'
import xpath from 'xpath'
import type { AppContext } from '../../../kernel/index.js'
import { pem, type IdpSettings } from './idp-metadata.js'
import { REQUEST_LIFE_MS, requestIds, takeAssertion } from './saml-ids.js'
import { serviceProvider } from './service-provider.js'

type Deps = Pick<AppContext, 'env' | 'redis' | 'keyPrefix'>

/** At most this far apart may the IdP's clock and ours be. */
const CLOCK_SKEW_MS = 2 * 60_000

/**
 * The team's SAML service provider, as node-saml runs it: assertions must be signed by one of the
 * IdP's certificates (the response too, where the IdP signs it), be for this team's entity
 * (audience), answer a request this app sent for this team (`InResponseTo`: always, unless the
 * owner allowed sign-ins started at the IdP; then an answer that names a request must still answer
 * one of ours), and be valid now within two minutes. The issuer and the recipient are checked after it (validateResponse).
 */
export function samlFor(deps: Deps, teamId: number, idp: IdpSettings): SAML {
  const sp = serviceProvider(deps.env.BASE_URL, teamId)
  return new SAML({
    issuer: sp.entity_id,
    callbackUrl: sp.acs_url,
    audience: sp.entity_id,
    entryPoint: idp.ssoUrl,
    idpIssuer: idp.entityId,
    idpCert: idp.certificates.map(pem),
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    validateInResponseTo: idp.allowIdpInitiated ? ValidateInResponseTo.ifPresent : ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_LIFE_MS,
    cacheProvider: requestIds(deps, teamId),
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
    signatureAlgorithm: 'sha256',
  })
}

/** Why an answer was refused, for the log; the browser is told only that it failed. */
export class SamlRefusal extends Error {}

const DSIG = 'http://www.w3.org/2000/09/xmldsig#'
const SHA1 = /(?:#|-)sha1$/i

/**
 * What node-saml does not check itself, on the raw answer before it: SHA-1 anywhere in a signature
 * (its signing or its digests) is refused, and so is any document with more than one Response or
 * Assertion element, or a DOCTYPE: the shapes that signature-wrapping attacks take.
 */
export function precheck(xml: string): void {
  if (/<!DOCTYPE/i.test(xml)) throw new SamlRefusal('a DOCTYPE')
  const document = new DOMParser({ errorHandler: () => {} }).parseFromString(xml, 'text/xml')
  if (!document?.documentElement) throw new SamlRefusal('not XML')
  const count = (name: string) => (xpath.select(`//*[local-name()='${name}']`, document) as Node[]).length
  if (count('Response') !== 1 || count('Assertion') > 1 || count('EncryptedAssertion') > 0) throw new SamlRefusal('more than one Response or Assertion')
  const algorithms = xpath.select(`//*[namespace-uri()='${DSIG}' and (local-name()='SignatureMethod' or local-name()='DigestMethod')]/@Algorithm`, document) as Attr[]
  if (algorithms.some((attribute) => SHA1.test(attribute.value))) throw new SamlRefusal('SHA-1')
}

/** The signed assertion's own facts node-saml leaves to us: its id, who issued it, who it was sent to, until when it holds. */
function assertionFacts(profile: Profile): { id: string; issuer: string | undefined; recipients: string[]; until: Date } {
  const document = new DOMParser({ errorHandler: () => {} }).parseFromString(profile.getAssertionXml!(), 'text/xml')
  const id = (xpath.select("/*[local-name()='Assertion']/@ID", document) as Attr[])[0]?.value
  const issuer = (xpath.select("/*[local-name()='Assertion']/*[local-name()='Issuer']", document) as Element[])[0]?.textContent?.trim()
  const recipients = (xpath.select("/*[local-name()='Assertion']/*[local-name()='Subject']/*[local-name()='SubjectConfirmation']/*[local-name()='SubjectConfirmationData']/@Recipient", document) as Attr[]).map((attribute) => attribute.value)
  const notOnOrAfter = (xpath.select("/*[local-name()='Assertion']/*[local-name()='Conditions']/@NotOnOrAfter", document) as Attr[])[0]?.value
  if (!id) throw new SamlRefusal('an assertion without an ID')
  const until = notOnOrAfter ? new Date(notOnOrAfter) : new Date(Date.now() + REQUEST_LIFE_MS)
  return { id, issuer, recipients, until: Number.isNaN(until.getTime()) ? new Date(Date.now() + REQUEST_LIFE_MS) : until }
}

/**
 * Validates a posted `SAMLResponse` for the team: the prechecks, node-saml's checks, then the
 * signed assertion's issuer (the IdP's entity id), its recipient (this team's ACS) and its id,
 * taken once for good. Answers the profile.
 */
export async function validateResponse(deps: Deps, teamId: number, idp: IdpSettings, samlResponse: string): Promise<Profile> {
  precheck(Buffer.from(samlResponse, 'base64').toString('utf8'))
  let profile: Profile | null
  try {
    ;({ profile } = await samlFor(deps, teamId, idp).validatePostResponseAsync({ SAMLResponse: samlResponse }))
  } catch (error) {
    throw new SamlRefusal(String((error as Error).message ?? error))
  }
  if (!profile) throw new SamlRefusal('no profile')
  const facts = assertionFacts(profile)
  // node-saml checks the issuer of logout messages only.
  if (facts.issuer !== idp.entityId) throw new SamlRefusal('a wrong Issuer')
  const acs = serviceProvider(deps.env.BASE_URL, teamId).acs_url
  if (facts.recipients.length === 0 || facts.recipients.some((recipient) => recipient !== acs)) throw new SamlRefusal('a wrong or missing Recipient')
  if (!(await takeAssertion(deps, teamId, facts.id, facts.until))) throw new SamlRefusal('a replayed assertion')
  return profile
}
