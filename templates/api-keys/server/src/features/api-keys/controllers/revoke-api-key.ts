import type { RequestHandler } from 'express'
import { type AppContext, notFound, recordCredentialEvent } from '../../../kernel/index.js'
import { apiKeyEvents } from '../events.js'
import { ApiKey } from '../models/api-key.js'
import { findOwnKey } from '../services/api-key-rows.js'
import { keyCache } from '../services/key-cache.js'
import { prefixOf } from '../services/keys.js'

/**
 * Revokes the key (its row stays, stamped, out of every list) with the `api_key_revoked` event;
 * once committed, every instance forgets it, so its very next request is a 401.
 */
export function revokeApiKey(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const userId = req.auth!.id
    const key = await findOwnKey(userId, String(req.params.id))
    if (!key) throw notFound()
    await recordCredentialEvent(ctx, apiKeyEvents.revoked, userId, {
      req,
      meta: { name: key.name, prefix: prefixOf(key.lookupId) },
      change: async (transaction) => {
        const [revoked] = await ApiKey.update({ revokedAt: new Date() }, { where: { id: key.id, userId, revokedAt: null }, transaction })
        // Revoked meanwhile (by another request, a sign-out everywhere): as unknown as any other, and no event.
        if (revoked === 0) throw notFound()
      },
    })
    keyCache(ctx).changed(key.lookupId)
    res.status(204).end()
  }
}
