import type { RequestHandler } from 'express'
import { z } from 'zod'
import { type AppContext, fieldError, recordCredentialEvent, validate } from '../../../kernel/index.js'
import { apiKeyEvents } from '../events.js'
import { ApiKey } from '../models/api-key.js'
import { apiKeyJson } from '../services/api-key-json.js'
import { apiKeyNameField, expiresInField, scopesField } from '../services/fields.js'
import { makeKey, prefixOf } from '../services/keys.js'

export const createApiKeySchema = z.object({ name: apiKeyNameField, scopes: scopesField, expires_in: expiresInField })

/**
 * Behind step-up. The key is in this answer and nowhere else: the database keeps the SHA-256 of
 * its secret, the event its name and prefix. `admin` is for admins alone (their role now).
 */
export function createApiKey(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { name, scopes, expires_in } = validate(createApiKeySchema, req.body)
    const userId = req.auth!.id
    if (scopes.includes('admin') && req.auth!.role !== 'admin') throw fieldError('scopes', 'apiKeys.adminOnly')
    const made = makeKey()
    let created: ApiKey | undefined
    await recordCredentialEvent(ctx, apiKeyEvents.created, userId, {
      req,
      meta: { name, prefix: prefixOf(made.lookupId) },
      change: async (transaction) => {
        created = await ApiKey.create(
          {
            userId,
            name,
            lookupId: made.lookupId,
            secretHash: made.secretHash,
            scopes: JSON.stringify(scopes),
            expiresAt: expires_in === null ? null : new Date(Date.now() + expires_in * 1000),
          },
          { transaction },
        )
        // As the database keeps it (MySQL's DATETIME has no milliseconds): the answer matches every later list.
        await created.reload({ transaction })
      },
    })
    res.status(201).json({ api_key: apiKeyJson(created!), key: made.key })
  }
}
