import type { RequestHandler } from 'express'
import { ApiKey } from '../models/api-key.js'
import { apiKeyJson } from '../services/api-key-json.js'

/** The user's keys that are not revoked (expired ones too, so their owner sees them lapse), newest first. */
export function listApiKeys(): RequestHandler {
  return async (req, res) => {
    const rows = await ApiKey.findAll({ where: { userId: req.auth!.id, revokedAt: null }, order: [['createdAt', 'DESC'], ['id', 'DESC']] })
    res.json({ data: rows.map(apiKeyJson) })
  }
}
