import { X509Certificate } from 'node:crypto'
import { DOMParser } from '@xmldom/xmldom'
import xpath from 'xpath'

/** What the app keeps of a SAML IdP's metadata: who it is, where its sign-in is, the keys that sign its answers. */
export interface IdpSettings {
  entityId: string
  ssoUrl: string
  /** Base64 DER of each signing certificate, as the metadata gives them. */
  certificates: string[]
  /**
   * The owner's choice, not the metadata's: an answer the app asked for none of (IdP-initiated,
   * no `InResponseTo`) signs in too. Absent in connections saved before it existed: no.
   */
  allowIdpInitiated?: boolean
}

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata'
const DS = 'http://www.w3.org/2000/09/xmldsig#'
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect'
const select = xpath.useNamespaces({ md: MD, ds: DS })

/**
 * Reads an IdP's metadata as its owner pasted it; null when it is not one IdP's metadata with a
 * redirect-binding sign-in URL over https (http on the loopback, for a local IdP) and at least one
 * signing certificate. A document with a DOCTYPE is refused outright (no entity expansion).
 */
export function parseIdpMetadata(xml: string): IdpSettings | null {
  if (/<!DOCTYPE/i.test(xml)) return null
  let failed = false
  const document = new DOMParser({ errorHandler: { warning: () => {}, error: () => void (failed = true), fatalError: () => void (failed = true) } }).parseFromString(xml, 'text/xml')
  if (failed || !document?.documentElement) return null
  const entities = select('/md:EntityDescriptor', document) as Element[]
  const descriptors = select('/md:EntityDescriptor/md:IDPSSODescriptor', document) as Element[]
  if (entities.length !== 1 || descriptors.length !== 1) return null
  const entityId = entities[0]!.getAttribute('entityID')?.trim()
  const ssoUrl = (select(`md:SingleSignOnService[@Binding='${REDIRECT}']/@Location`, descriptors[0]!) as Attr[])[0]?.value.trim()
  const certificates = (select("md:KeyDescriptor[not(@use) or @use='signing']/ds:KeyInfo/ds:X509Data/ds:X509Certificate", descriptors[0]!) as Element[])
    .map((node) => (node.textContent ?? '').replace(/\s+/g, ''))
    .filter((text) => /^[A-Za-z0-9+/]+={0,2}$/.test(text) && isCertificate(text))
  if (!entityId || !ssoUrl || !safeUrl(ssoUrl) || certificates.length === 0) return null
  return { entityId, ssoUrl, certificates: [...new Set(certificates)] }
}

function isCertificate(der: string): boolean {
  try {
    new X509Certificate(Buffer.from(der, 'base64'))
    return true
  } catch {
    return false
  }
}

function safeUrl(text: string): boolean {
  try {
    const url = new URL(text)
    return url.protocol === 'https:' || (url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))
  } catch {
    return false
  }
}

/** A certificate as PEM, which node-saml takes. */
export const pem = (der: string) => `-----BEGIN CERTIFICATE-----\n${der.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`
