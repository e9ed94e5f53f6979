import type { RequestHandler } from 'express'
import { fieldError, inForce, serializeUser, startImpersonation, stopImpersonation, unauthenticated, type AppContext } from '../../../kernel/index.js'
import { targetOf } from './suspension.js'

/**
 * An admin signs in as a user to see what they see: a separate session of an hour at most, whose
 * cookies replace the admin's until it is stopped (kernel/auth/impersonation.ts). Never as an
 * admin (that would hand one admin another's powers), nor as oneself or a suspended account.
 */
export function impersonateUser(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const user = await targetOf(req.params.id)
    if (user.id === req.auth!.id || user.Role?.name === 'admin') throw fieldError('id', 'users.impersonateAdmin')
    if (inForce(user)) throw fieldError('id', 'users.impersonateSuspended')
    const json = serializeUser(user)
    await startImpersonation(req, res, ctx, json)
    res.json({ user: json })
  }
}

/** `DELETE /api/auth/impersonation`: back to the admin's own session, the impersonation ended. */
export function stopImpersonating(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const admin = await stopImpersonation(req, res, ctx)
    if (!admin) throw unauthenticated()
    res.json({ user: admin })
  }
}
