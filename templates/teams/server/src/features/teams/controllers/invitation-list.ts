import type { RequestHandler } from 'express'
import { pendingInvitations } from '../services/invitations.js'

/** The team's pending invitations (expired ones are not pending). */
export function listInvitations(): RequestHandler {
  return async (req, res) => {
    res.json({ data: await pendingInvitations(req.team!.id) })
  }
}
