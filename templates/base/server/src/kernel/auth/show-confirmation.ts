import type { RequestHandler } from 'express'
import type { AppContext } from '../context.js'
import { confirmedUntil, confirmMethods } from '../security/confirmation.js'

/** `GET /api/account/confirm`: whether this session is confirmed, and how this account can confirm. */
export function showConfirmation(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const [until, methods] = await Promise.all([confirmedUntil(req.auth!.id, req.sessionId), confirmMethods(ctx, req.auth!.id)])
    res.set('Cache-Control', 'no-store')
    res.json({ confirmed_until: until?.toISOString() ?? null, methods })
  }
}
