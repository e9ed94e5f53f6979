import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

const VERSION = 'v1'
const keys = new Map<string, Buffer>()

/**
 * The AES-256 key, derived from ENCRYPTION_KEY with HKDF rather than used as it is: the variable
 * is any text of 32+ characters, and a purpose-bound key keeps it usable for other data later.
 */
function keyOf(encryptionKey: string): Buffer {
  let key = keys.get(encryptionKey)
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', encryptionKey, '', 'two-factor-secret', 32))
    keys.set(encryptionKey, key)
  }
  return key
}

/** AES-256-GCM with a fresh 96-bit IV: `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function encrypt(plaintext: string, encryptionKey: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', keyOf(encryptionKey), iv)
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.')
}

/** The plaintext, or null when the value was not sealed with this key (ENCRYPTION_KEY changed) or was altered. */
export function decrypt(sealed: string, encryptionKey: string): string | null {
  const [version, iv, tag, ciphertext] = sealed.split('.')
  if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined) return null
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(encryptionKey), Buffer.from(iv, 'base64url'))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8')
  } catch {
    return null
  }
}
