import { createHash, generateKeyPairSync, type JsonWebKey } from 'node:crypto'
import { Op } from 'sequelize'
import { decrypt, encrypt } from '../../../kernel/index.js'
import { SigningKey } from '../models/signing-key.js'

/** The algorithms keys are kept for: ES256 signs by default, RS256 for clients that need it. */
export const SIGNING_ALGORITHMS = ['ES256', 'RS256'] as const
type Algorithm = (typeof SIGNING_ALGORITHMS)[number]

/** The sealing purpose of the private keys (kernel/security/encryption.ts): theirs alone. */
const PURPOSE = 'oauth-provider-signing-key'

/**
 * How long a retired key stays published: the longest a token it signed lives (an ID token's
 * hour, provider.ts `ttl`), with a minute's clock skew. After that nothing it signed is valid.
 */
export const RETIRED_KEY_SECONDS = 3600 + 60

export type PrivateJwk = JsonWebKey & { kid: string; alg: Algorithm; use: 'sig' }

function generate(alg: Algorithm): PrivateJwk {
  const { privateKey } = alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 })
  const jwk = privateKey.export({ format: 'jwk' })
  // RFC 7638's thumbprint, over the public members in their order, names the key.
  const members = jwk.kty === 'EC' ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y } : { e: jwk.e, kty: jwk.kty, n: jwk.n }
  const kid = createHash('sha256').update(JSON.stringify(members)).digest('base64url')
  return { ...jwk, kid, alg, use: 'sig' }
}

async function addKey(alg: Algorithm, encryptionKey: string): Promise<void> {
  const jwk = generate(alg)
  await SigningKey.create({ kid: jwk.kid, alg, privateJwk: encrypt(JSON.stringify(jwk), encryptionKey, PURPOSE) })
}

/**
 * The keys to publish and sign with, the signing key of each algorithm first (oidc-provider signs
 * with the first key that fits); a missing algorithm gets its first key now. A key that no longer
 * opens (ENCRYPTION_KEY changed) is left out, with a line in the log, and replaced.
 */
export async function loadSigningKeys(encryptionKey: string, warn: (message: string) => void): Promise<PrivateJwk[]> {
  const since = new Date(Date.now() - RETIRED_KEY_SECONDS * 1000)
  const read = async () => {
    const rows = await SigningKey.findAll({ where: { [Op.or]: [{ retiredAt: null }, { retiredAt: { [Op.gt]: since } }] }, order: [['id', 'DESC']] })
    const keys: { jwk: PrivateJwk; active: boolean }[] = []
    for (const row of rows) {
      const opened = decrypt(row.privateJwk, encryptionKey, PURPOSE)
      if (opened === null) warn(`signing key ${row.kid} does not decrypt: was ENCRYPTION_KEY changed? It is left out and a new one made.`)
      else keys.push({ jwk: JSON.parse(opened) as PrivateJwk, active: row.retiredAt === null })
    }
    return keys
  }
  let keys = await read()
  const missing = SIGNING_ALGORITHMS.filter((alg) => !keys.some((key) => key.jwk.alg === alg && key.active))
  if (missing.length > 0) {
    for (const alg of missing) await addKey(alg, encryptionKey)
    keys = await read()
  }
  // The signing keys first, each group newest first (the query's order).
  return [...keys.filter((key) => key.active), ...keys.filter((key) => !key.active)].map((key) => key.jwk)
}

/**
 * `oauth-provider:rotate-keys`: a new key for each algorithm signs from the next start of each
 * instance; the old ones stay published until what they signed has expired, and keys retired
 * longer ago are deleted.
 */
export async function rotateSigningKeys(encryptionKey: string): Promise<string> {
  const now = new Date()
  await SigningKey.update({ retiredAt: now }, { where: { retiredAt: null } })
  for (const alg of SIGNING_ALGORITHMS) await addKey(alg, encryptionKey)
  const dropped = await SigningKey.destroy({ where: { retiredAt: { [Op.lt]: new Date(now.getTime() - RETIRED_KEY_SECONDS * 1000) } } })
  return `New signing keys (${SIGNING_ALGORITHMS.join(', ')}) made; the previous ones stay published for ${Math.round(RETIRED_KEY_SECONDS / 60)} minutes${dropped ? `, and ${dropped} expired key(s) were deleted` : ''}. Restart every instance of the app so that the new keys sign.`
}
