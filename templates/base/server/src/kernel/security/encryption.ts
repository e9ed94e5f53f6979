import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

const VERSION = 'v1'
const keys = new Map<string, Buffer>()

/**
 * What a key is for (the HKDF info, `webhook-secret`, a layer's own): each kind of sealed value
 * gets its own key, so one secret of the server seals several without one ever opening another.
 * A purpose never changes once values are sealed with it.
 */
export type SealPurpose = string

/**
 * The AES-256 key, derived from a server secret with HKDF rather than used as it is: the secret
 * is any text of 32+ characters, and a purpose-bound key keeps it usable for other data.
 */
function keyOf(secret: string, purpose: SealPurpose): Buffer {
  const id = `${purpose}\0${secret}`
  let key = keys.get(id)
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, '', purpose, 32))
    keys.set(id, key)
  }
  return key
}

/** AES-256-GCM with a fresh 96-bit IV: `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function encrypt(plaintext: string, secret: string, purpose: SealPurpose): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret, purpose), iv)
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.')
}

/** The plaintext, or null when the value was not sealed with this key (the secret changed) or was altered. */
export function decrypt(sealed: string, secret: string, purpose: SealPurpose): string | null {
  const [version, iv, tag, ciphertext] = sealed.split('.')
  if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined) return null
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret, purpose), Buffer.from(iv, 'base64url'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8')
  } catch {
    return null
  }
}
