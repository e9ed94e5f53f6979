import { randomUUID } from 'node:crypto'
import { inflateRawSync } from 'node:zlib'
import { SignedXml } from 'xml-crypto'
import { selfSigned } from './x509.js'

const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion'
const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol'
const ALGORITHMS = {
  sha256: { signature: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256', digest: 'http://www.w3.org/2001/04/xmlenc#sha256' },
  sha1: { signature: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1', digest: 'http://www.w3.org/2000/09/xmldsig#sha1' },
}

/** What one answer of the IdP stand-in says, each part overridable for a test of its refusal. */
export interface AnswerOptions {
  email: string
  /** The request's id from the app (requestIdOf); omitted for an unsolicited answer. */
  inResponseTo?: string
  audience: string
  recipient: string
  issuer?: string
  assertionId?: string
  /** Seconds from now. */
  notBefore?: number
  notOnOrAfter?: number
  /** What is signed: the assertion (most IdPs), the response around it, both, or nothing. */
  sign?: 'assertion' | 'response' | 'both' | 'none'
  algorithm?: keyof typeof ALGORITHMS
  /** Signed by another key than the one in the metadata. */
  signedByStranger?: boolean
  name?: string
}

const iso = (secondsFromNow: number) => new Date(Date.now() + secondsFromNow * 1000).toISOString()
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')

/**
 * A SAML identity provider stand-in: its metadata (what an owner pastes), and signed answers as
 * Okta or Entra ID post them to the app's ACS, made with xml-crypto and a key made at run time.
 */
export function samlIdp(tag = randomUUID().slice(0, 8)) {
  const entityId = `https://idp-${tag}.example.test/saml`
  const ssoUrl = `https://idp-${tag}.example.test/sso`
  const own = selfSigned(`Test IdP ${tag}`)
  const stranger = selfSigned('Someone else')

  const metadata = `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${own.certificateBase64.match(/.{1,64}/g)!.join('\n')}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${ssoUrl}/post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`

  function signed(xml: string, what: 'Assertion' | 'Response', algorithm: keyof typeof ALGORITHMS, signedByStranger: boolean): string {
    const key = signedByStranger ? stranger : own
    const signature = new SignedXml({ privateKey: key.privateKeyPem, publicCert: key.certificatePem, signatureAlgorithm: ALGORITHMS[algorithm].signature, canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#' })
    signature.addReference({
      xpath: `/*[local-name(.)='Response']${what === 'Assertion' ? "/*[local-name(.)='Assertion']" : ''}`,
      digestAlgorithm: ALGORITHMS[algorithm].digest,
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    })
    const issuer = `/*[local-name(.)='Response']${what === 'Assertion' ? "/*[local-name(.)='Assertion']" : ''}/*[local-name(.)='Issuer']`
    signature.computeSignature(xml, { location: { reference: issuer, action: 'after' } })
    return signature.getSignedXml()
  }

  /** The answer's XML, signed as asked. */
  function answerXml(options: AnswerOptions): string {
    const { email, inResponseTo, audience, recipient, issuer = entityId, assertionId = `_a${randomUUID()}`, notBefore = -30, notOnOrAfter = 300, sign = 'assertion', algorithm = 'sha256', signedByStranger = false, name = 'Sam Sample' } = options
    const replyTo = inResponseTo === undefined ? '' : ` InResponseTo="${escape(inResponseTo)}"`
    let xml = `<samlp:Response xmlns:samlp="${SAMLP}" xmlns:saml="${SAML}" ID="_r${randomUUID()}" Version="2.0" IssueInstant="${iso(0)}" Destination="${escape(recipient)}"${replyTo}>`
      + `<saml:Issuer>${escape(issuer)}</saml:Issuer>`
      + `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>`
      + `<saml:Assertion xmlns:saml="${SAML}" ID="${escape(assertionId)}" Version="2.0" IssueInstant="${iso(0)}">`
      + `<saml:Issuer>${escape(issuer)}</saml:Issuer>`
      + `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${escape(email)}</saml:NameID>`
      + `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${iso(notOnOrAfter)}" Recipient="${escape(recipient)}"${replyTo}/></saml:SubjectConfirmation></saml:Subject>`
      + `<saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}"><saml:AudienceRestriction><saml:Audience>${escape(audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>`
      + `<saml:AuthnStatement AuthnInstant="${iso(0)}" SessionIndex="_s${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`
      + `<saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${escape(email)}</saml:AttributeValue></saml:Attribute><saml:Attribute Name="displayName"><saml:AttributeValue>${escape(name)}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`
      + `</saml:Assertion></samlp:Response>`
    if (sign === 'assertion' || sign === 'both') xml = signed(xml, 'Assertion', algorithm, signedByStranger)
    if (sign === 'response' || sign === 'both') xml = signed(xml, 'Response', algorithm, signedByStranger)
    return xml
  }

  return {
    entityId,
    ssoUrl,
    metadata,
    answerXml,
    /** The answer as the browser posts it: base64 in the `SAMLResponse` field. */
    answer: (options: AnswerOptions) => Buffer.from(answerXml(options)).toString('base64'),
  }
}

/** The id of the AuthnRequest in a redirect-binding URL: what the IdP's answer must be `InResponseTo`. */
export function requestIdOf(redirect: string): string {
  const request = inflateRawSync(Buffer.from(new URL(redirect).searchParams.get('SAMLRequest')!, 'base64')).toString('utf8')
  return /\bID="([^"]+)"/.exec(request)![1]!
}

export const encode = (xml: string) => Buffer.from(xml).toString('base64')
