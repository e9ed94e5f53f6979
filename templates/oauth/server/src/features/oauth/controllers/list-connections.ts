import type { RequestHandler } from 'express'
import { OAuthAccount } from '../models/oauth-account.js'

/** `GET /api/account/connections`: the providers linked to this account. */
export function listConnections(): RequestHandler {
  return async (req, res) => {
    const accounts = await OAuthAccount.findAll({ where: { userId: req.auth!.id }, order: [['createdAt', 'ASC'], ['id', 'ASC']] })
    res.json({ data: accounts.map((account) => ({ provider: account.provider, email: account.email, createdAt: account.createdAt })) })
  }
}
