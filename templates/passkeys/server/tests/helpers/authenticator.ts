import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'

// A software passkey authenticator, written for the tests with node:crypto: a real P-256 key,
// attestation objects and authenticator data in real CBOR and binary layout, real ECDSA
// signatures. What a browser and a platform authenticator would send, with no library of
// ours or WebAuthn's in between, so the server's checks run against what they will meet.

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [key: string]: Cbor }

/** Encodes the few CBOR types WebAuthn uses (RFC 8949): integers, byte and text strings, arrays, maps. */
export function cbor(value: Cbor): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length])
    if (length < 0x100) return Buffer.from([(major << 5) | 24, length])
    if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff])
    const bytes = Buffer.alloc(5)
    bytes[0] = (major << 5) | 26
    bytes.writeUInt32BE(length, 1)
    return bytes
  }
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8')
    return Buffer.concat([head(3, text.length), text])
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value])
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)])
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value)
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([key, item]) => [cbor(key), cbor(item)])])
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest()

const FLAGS = { userPresent: 0x01, userVerified: 0x04, backupEligible: 0x08, backedUp: 0x10, attestedData: 0x40 }

/** What a ceremony may be made to get wrong, for the tests of the server's refusals. */
export interface Tamper {
  origin?: string
  rpId?: string
  type?: string
  challenge?: string
  userVerified?: boolean
  /** The signature counter to report instead of the next one. */
  counter?: number
  /** Sign with another key than the registered one. */
  otherKey?: boolean
}

interface CreationOptions {
  challenge: string
  rp: { id?: string; name: string }
  user: { id: string; name: string }
}
interface RequestOptions {
  challenge: string
  rpId?: string
}

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(32)
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  /** The user handle of the account this passkey was made for. */
  userHandle: string | null = null
  counter = 0

  /**
   * @param origin the page the browser is on
   * @param options `counting`: a signature counter that goes up with each use (security keys);
   *   otherwise 0 every time, as synced passkeys report. `backedUp`: synced to other devices.
   */
  constructor(
    readonly origin: string,
    private readonly options: { counting?: boolean; backedUp?: boolean } = {},
  ) {}

  get id(): string {
    return b64url(this.credentialId)
  }

  /** navigator.credentials.create(), serialised as @simplewebauthn/browser posts it (RegistrationResponseJSON). */
  register(options: CreationOptions, tamper: Tamper = {}) {
    this.userHandle = options.user.id
    const clientData = this.clientData('webauthn.create', options.challenge, tamper)
    const jwk = this.keys.publicKey.export({ format: 'jwk' })
    // COSE_Key of an ES256 key: kty EC2, alg -7, crv P-256, x, y.
    const coseKey = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    )
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(this.credentialId.length)
    const attested = Buffer.concat([Buffer.alloc(16) /* AAGUID: none */, idLength, this.credentialId, coseKey])
    const authData = this.authenticatorData(tamper.rpId ?? options.rp.id!, tamper, FLAGS.attestedData, this.counter)
    const attestationObject = cbor({ fmt: 'none', attStmt: {}, authData: Buffer.concat([authData, attested]) })
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64url(clientData), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    }
  }

  /** navigator.credentials.get() with a discoverable credential (AuthenticationResponseJSON). */
  assert(options: RequestOptions, rpId: string, tamper: Tamper = {}) {
    if (this.options.counting) this.counter++
    const clientData = this.clientData('webauthn.get', options.challenge, tamper)
    const authData = this.authenticatorData(tamper.rpId ?? options.rpId ?? rpId, tamper, 0, tamper.counter ?? (this.options.counting ? this.counter : 0))
    const key: KeyObject = tamper.otherKey ? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey : this.keys.privateKey
    // ES256 over authenticatorData || SHA-256(clientDataJSON), DER-encoded as WebAuthn sends it.
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), key)
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    }
  }

  private clientData(type: string, challenge: string, tamper: Tamper): Buffer {
    return Buffer.from(JSON.stringify({ type: tamper.type ?? type, challenge: tamper.challenge ?? challenge, origin: tamper.origin ?? this.origin, crossOrigin: false }))
  }

  private authenticatorData(rpId: string, tamper: Tamper, extraFlags: number, counter: number): Buffer {
    let flags = FLAGS.userPresent | extraFlags
    if (tamper.userVerified ?? true) flags |= FLAGS.userVerified
    if (this.options.backedUp) flags |= FLAGS.backupEligible | FLAGS.backedUp
    const count = Buffer.alloc(4)
    count.writeUInt32BE(counter)
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count])
  }
}
