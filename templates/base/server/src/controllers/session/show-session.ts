import type { RequestHandler } from 'express'

export function showSession(): RequestHandler {
  return async (req, res) => {
    res.json({ id: req.session.id, enabled: req.session.enabled, data: await req.session.all() })
  }
}
