import type { Request, Response } from 'express'
import { security } from '../config/security.js'
import { fieldError } from '../http/errors.js'
import { Session, User } from '../models/index.js'
import { checkPassword } from './passwords.js'

/**
 * The password check of a sensitive account action. A wrong password is a 422 on `field` and is
 * marked on the response, so the per-user limiter of these routes (middleware/rate-limits.ts)
 * counts it, and only it. An account without a password has nothing to type: the session asking
 * must have signed in within the last 10 minutes instead.
 */
export async function confirmPassword(req: Request, res: Response, password: string | undefined, field = 'password'): Promise<User> {
  const user = await User.findByPk(req.auth!.id)
  if (user && user.password === null) {
    if (await signedInRecently(req.sessionId)) return user
    throw fieldError(field, 'Your account has no password: sign in again to confirm this (within 10 minutes), or set a password with "Forgot password?".')
  }
  if (!password) throw fieldError(field, 'The password field is required.')
  if (!(await checkPassword(password, user?.password)) || !user) {
    res.locals.wrongPassword = true
    throw fieldError(field, 'The password is incorrect.')
  }
  return user
}

async function signedInRecently(sessionId: string | undefined): Promise<boolean> {
  const session = sessionId ? await Session.findByPk(sessionId, { attributes: ['createdAt', 'revokedAt'] }) : null
  return !!session && !session.revokedAt && Date.now() - session.createdAt.getTime() < security.recentSignInSeconds * 1000
}
