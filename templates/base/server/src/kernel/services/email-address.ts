// No address holds one; from a provider, one would forge lines of a mail's header.
const CONTROL = /[\p{Cc}\u2028\u2029]/u
export const hasControlCharacter = (text: string) => CONTROL.test(text)
const hasAscii = (text: string) => [...text].some((char) => char.codePointAt(0)! < 0x80)

/**
 * The one form of an e-mail address, for every way one comes in (the forms, a provider, an
 * invitation, an e-mail change, a future single sign-on): trimmed, composed (NFC) and lower-cased,
 * as it is looked up, stored and mailed. Null for an address that lower-casing would turn into
 * another one: a character outside ASCII that becomes ASCII on the way (the Kelvin sign K becomes
 * k, the dotted capital I becomes i and a dot) names a different mailbox than the one written, so
 * the address is refused rather than folded into someone else's. So is one with a control character.
 */
export function normaliseEmail(raw: string): string | null {
  const trimmed = raw.trim()
  if (hasControlCharacter(trimmed)) return null
  for (const char of trimmed) {
    if (!hasAscii(char) && hasAscii(char.normalize('NFC').toLowerCase())) return null
  }
  return trimmed.normalize('NFC').toLowerCase().normalize('NFC')
}
