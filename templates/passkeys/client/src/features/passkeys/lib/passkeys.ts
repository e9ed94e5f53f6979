/** A passkey as `GET /api/account/passkeys` lists it; the key itself stays on the user's device. */
export interface Passkey {
  id: number | string
  name: string
  createdAt: string
  lastUsedAt: string | null
  /** Synced by a password manager or platform account, so other devices of the user have it too. */
  backedUp: boolean
}

const errorName = (error: unknown) => (error instanceof Error ? error.name : undefined)

/**
 * The browser's prompt ended without a passkey: the user closed it, chose none, or it timed out
 * (browsers report all three alike, on purpose), or a newer ceremony replaced it.
 */
export function ceremonyCancelled(error: unknown): boolean {
  const name = errorName(error)
  return name === 'NotAllowedError' || name === 'AbortError'
}

/** Registration refused because this authenticator already holds one of the user's passkeys. */
export function alreadyRegistered(error: unknown): boolean {
  return errorName(error) === 'InvalidStateError'
}
