import type { RequestHandler } from 'express'
import { listSessions } from '../../../kernel/index.js'

export function listAccountSessions(): RequestHandler {
  return async (req, res) => {
    res.json({ data: await listSessions(req.auth!.id, req.sessionId) })
  }
}
