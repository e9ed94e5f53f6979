import type { RequestHandler } from 'express'
import { Passkey } from '../models/passkey.js'
import { passkeyJson } from '../services/passkey-json.js'

export function listPasskeys(): RequestHandler {
  return async (req, res) => {
    const rows = await Passkey.findAll({ where: { userId: req.auth!.id }, order: [['createdAt', 'ASC'], ['id', 'ASC']] })
    res.json({ data: rows.map(passkeyJson) })
  }
}
