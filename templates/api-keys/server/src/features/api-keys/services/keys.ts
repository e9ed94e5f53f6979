import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'

// An API key is `cca_<id>_<secret>`: `<id>` 12 letters and digits, the public lookup id (the
// `prefix` `cca_<id>` names the key in lists and events); `<secret>` 256 random bits in base64url,
// stored only as its SHA-256. The secret's alphabet holds `_`, so a key is split on its first two
// underscores only.

export const KEY_PREFIX = 'cca'
const ID_LENGTH = 12
const SECRET_BYTES = 32
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const ID = /^[A-Za-z0-9]{12}$/
/** 32 bytes in base64url without padding: 43 characters. */
const SECRET = /^[A-Za-z0-9_-]{43}$/

export interface NewKey {
  lookupId: string
  /** The whole key, shown once. */
  key: string
  secretHash: string
}

export const prefixOf = (lookupId: string) => `${KEY_PREFIX}_${lookupId}`

const hashSecret = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex')

export function makeKey(): NewKey {
  let lookupId = ''
  for (let i = 0; i < ID_LENGTH; i++) lookupId += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]
  const secret = randomBytes(SECRET_BYTES).toString('base64url')
  return { lookupId, key: `${prefixOf(lookupId)}_${secret}`, secretHash: hashSecret(secret) }
}

/** Whether a bearer token is of our kind at all (`cca_…`), right or wrong. */
export const isOurs = (token: string) => token.startsWith(`${KEY_PREFIX}_`)

/** `{lookupId, secret}` of a well-formed key, or null. */
export function parseKey(token: string): { lookupId: string; secret: string } | null {
  const first = token.indexOf('_')
  const second = token.indexOf('_', first + 1)
  if (first < 0 || second < 0 || token.slice(0, first) !== KEY_PREFIX) return null
  const lookupId = token.slice(first + 1, second)
  const secret = token.slice(second + 1)
  return ID.test(lookupId) && SECRET.test(secret) ? { lookupId, secret } : null
}

/** The secret against the stored hash (its 32 bytes), in constant time. */
export function secretMatches(secret: string, secretHash: Buffer): boolean {
  const given = createHash('sha256').update(secret, 'utf8').digest()
  return secretHash.length === given.length && timingSafeEqual(given, secretHash)
}
