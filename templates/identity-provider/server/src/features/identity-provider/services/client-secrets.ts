import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import { sha256 } from './digest.js'

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

/** 24 lower-case letters and digits (124 bits): public, but never guessable from another. */
export function newClientId(): string {
  let id = ''
  for (let i = 0; i < 24; i++) id += ALPHABET[randomInt(ALPHABET.length)]
  return id
}

/** 256 random bits, base64url: shown once, kept as its SHA-256 (a secret this long needs no slow hash). */
export function newClientSecret(): { secret: string; secretHash: string } {
  const secret = randomBytes(32).toString('base64url')
  return { secret, secretHash: sha256(secret) }
}

/**
 * What oidc-provider's client authentication asks (`Client.prototype.compareClientSecret`, which
 * it lets a deployment replace): the presented secret against the kept hash, in constant time.
 */
export function secretMatches(presented: string, secretHash: string | undefined): boolean {
  if (!secretHash) return false
  const given = Buffer.from(sha256(presented), 'hex')
  const kept = Buffer.from(secretHash, 'hex')
  return given.length === kept.length && timingSafeEqual(given, kept)
}
