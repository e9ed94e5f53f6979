import { type KeyObject, generateKeyPairSync, randomBytes, sign } from 'node:crypto'

// A self-signed X.509 certificate made with node:crypto alone, for the SAML IdP stand-in: the
// tests make their keys when they run, so no private key sits in the app's files.

const length = (n: number) => (n < 0x80 ? Buffer.from([n]) : Buffer.concat([Buffer.from([0x80 | Math.ceil(n.toString(16).length / 2)]), Buffer.from(n.toString(16).padStart(Math.ceil(n.toString(16).length / 2) * 2, '0'), 'hex')]))
const tlv = (tag: number, ...content: Buffer[]) => {
  const body = Buffer.concat(content)
  return Buffer.concat([Buffer.from([tag]), length(body.length), body])
}
const sequence = (...content: Buffer[]) => tlv(0x30, ...content)

function oid(text: string): Buffer {
  const [first, second, ...rest] = text.split('.').map(Number)
  const bytes = [40 * first! + second!]
  for (const part of rest) {
    const chunk = [part & 0x7f]
    for (let value = part >> 7; value > 0; value >>= 7) chunk.unshift((value & 0x7f) | 0x80)
    bytes.push(...chunk)
  }
  return tlv(0x06, Buffer.from(bytes))
}

const utcTime = (date: Date) => tlv(0x17, Buffer.from(`${date.toISOString().slice(2, 19).replace(/[-T:]/g, '')}Z`))
const name = (commonName: string) => sequence(tlv(0x31, sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName)))))
const SHA256_WITH_RSA = sequence(oid('1.2.840.113549.1.1.11'), Buffer.from([0x05, 0x00]))

/** A fresh RSA key and a certificate of it, valid from yesterday for a year, as PEM and as the base64 DER metadata carries. */
export function selfSigned(commonName: string): { privateKey: KeyObject; privateKeyPem: string; certificatePem: string; certificateBase64: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const day = 86_400_000
  const serial = randomBytes(8)
  // Positive and minimal in DER: the first byte neither 0 nor above 0x7f.
  serial[0] = (serial[0]! & 0x3f) | 0x40
  const tbs = sequence(
    tlv(0x02, serial),
    SHA256_WITH_RSA,
    name(commonName),
    sequence(utcTime(new Date(Date.now() - day)), utcTime(new Date(Date.now() + 365 * day))),
    name(commonName),
    publicKey.export({ type: 'spki', format: 'der' }),
  )
  const der = sequence(tbs, SHA256_WITH_RSA, tlv(0x03, Buffer.from([0]), sign('sha256', tbs, privateKey)))
  const base64 = der.toString('base64')
  return {
    privateKey,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    certificatePem: `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`,
    certificateBase64: base64,
  }
}
