import { Op } from 'sequelize'
import { passkeys } from '../settings.js'
import { PasskeyChallenge, type CeremonyPurpose } from '../models/passkey-challenge.js'
import { hashToken } from '../../../kernel/index.js'

/**
 * Keeps a ceremony's challenge (as its hash) where every instance finds it. Expired ones are
 * swept on the way, so a table that anyone can add to stays small.
 */
export async function rememberChallenge(challenge: string, purpose: CeremonyPurpose, owner: { userId?: number; sessionId?: string } = {}): Promise<void> {
  const now = Date.now()
  await PasskeyChallenge.destroy({ where: { expiresAt: { [Op.lte]: new Date(now) } } })
  await PasskeyChallenge.create({
    id: hashToken(challenge),
    purpose,
    userId: owner.userId ?? null,
    sessionId: owner.sessionId ?? null,
    expiresAt: new Date(now + passkeys.challengeSeconds * 1000),
  })
}

/**
 * Single use: of two requests answering the same challenge, one deletes its row and wins; an
 * expired, used, voided or someone else's challenge deletes nothing.
 */
export async function useChallenge(challenge: string, purpose: CeremonyPurpose, owner: { userId?: number; sessionId?: string } = {}): Promise<boolean> {
  const where = {
    id: hashToken(challenge),
    purpose,
    expiresAt: { [Op.gt]: new Date() },
    ...(owner.userId === undefined ? {} : { userId: owner.userId }),
    ...(owner.sessionId === undefined ? {} : { sessionId: owner.sessionId }),
  }
  return (await PasskeyChallenge.destroy({ where })) === 1
}

/** The challenge a browser signed, as its client data states it; null when that does not parse. */
export function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown }
    return typeof data.challenge === 'string' && data.challenge.length > 0 && data.challenge.length <= 512 ? data.challenge : null
  } catch {
    return null
  }
}
