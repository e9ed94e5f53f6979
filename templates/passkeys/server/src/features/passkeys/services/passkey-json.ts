import type { Passkey } from '../models/passkey.js'

export interface PasskeyJson {
  id: number
  name: string
  createdAt: string
  lastUsedAt: string | null
  backedUp: boolean
}

/** The only shape in which a passkey leaves the server: never its key or credential id. */
export const passkeyJson = (passkey: Passkey): PasskeyJson => ({
  id: passkey.id,
  name: passkey.name,
  createdAt: passkey.createdAt.toISOString(),
  lastUsedAt: passkey.lastUsedAt ? passkey.lastUsedAt.toISOString() : null,
  backedUp: passkey.backedUp,
})
