import type { RequestHandler } from 'express'
import { z } from 'zod'
import { notFound, validate } from '../../../kernel/index.js'
import { findOwnKey } from '../services/api-key-rows.js'
import { apiKeyJson } from '../services/api-key-json.js'
import { apiKeyNameField } from '../services/fields.js'

export const renameApiKeySchema = z.object({ name: apiKeyNameField })

/** A label only: what the key may do does not change, so no event. */
export function renameApiKey(): RequestHandler {
  return async (req, res) => {
    const { name } = validate(renameApiKeySchema, req.body)
    const key = await findOwnKey(req.auth!.id, String(req.params.id))
    if (!key) throw notFound()
    await key.update({ name })
    res.json({ api_key: apiKeyJson(key) })
  }
}
