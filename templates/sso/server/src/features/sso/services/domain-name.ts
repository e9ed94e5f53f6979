import { domainToASCII } from 'node:url'

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/

/**
 * A domain as the app keeps it: lower case, in its ASCII (punycode) form, without a trailing dot;
 * null for anything that is not a registrable name of at least two labels (no IP address, no
 * single label, no wildcard).
 */
export function normalDomain(text: string): string | null {
  const ascii = domainToASCII(text.trim().replace(/\.$/, '').toLowerCase())
  if (!ascii || ascii.length > 253) return null
  const labels = ascii.split('.')
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null
  // The last label is a top-level domain: never all digits (that would be an IPv4 address).
  return /^\d+$/.test(labels.at(-1)!) ? null : ascii
}

/** The domain of an e-mail address, as normalDomain keeps it; null when it has none. */
export function domainOfEmail(email: string): string | null {
  const at = email.lastIndexOf('@')
  return at === -1 ? null : normalDomain(email.slice(at + 1))
}

/** Where the team publishes its proof: a name of the app's own under the domain. */
export const txtName = (domain: string) => `_cookie-auth.${domain}`
