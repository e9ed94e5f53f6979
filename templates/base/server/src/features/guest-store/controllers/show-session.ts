import type { RequestHandler } from 'express'

export function showSession(): RequestHandler {
  return async (req, res) => {
    res.json({ id: req.guestSession.id, enabled: req.guestSession.enabled, data: await req.guestSession.all() })
  }
}
