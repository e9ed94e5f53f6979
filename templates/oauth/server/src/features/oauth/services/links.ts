import type { Request } from 'express'
import { UniqueConstraintError } from 'sequelize'
import { type AppContext, normaliseEmail, recordCredentialEvent } from '../../../kernel/index.js'
import { OAuthAccount } from '../models/oauth-account.js'
import { oauthEvents } from '../events.js'
import type { ProviderProfile } from './providers/types.js'

/**
 * Links the provider's account to the user who came back from it: false when that provider
 * account belongs to someone else here, or the user has another one of the provider linked.
 * Linking again what is already linked changes nothing.
 */
export async function linkAccount(ctx: AppContext, req: Request, userId: number, provider: string, profile: ProviderProfile): Promise<boolean> {
  const existing = await OAuthAccount.findOne({ where: { provider, subject: profile.subject } })
  if (existing) return existing.userId === userId
  try {
    await OAuthAccount.create({ userId, provider, subject: profile.subject, email: (profile.email === null ? null : normaliseEmail(profile.email))?.slice(0, 255) ?? null })
  } catch (error) {
    if (error instanceof UniqueConstraintError) return false
    throw error
  }
  await recordCredentialEvent(ctx, oauthEvents.linked, userId, { req, meta: { provider } })
  return true
}
