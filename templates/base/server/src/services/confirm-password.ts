import type { Response } from 'express'
import { fieldError } from '../http/errors.js'
import { User } from '../models/index.js'
import { checkPassword } from './passwords.js'

/**
 * The password check of a sensitive account action. A wrong password is a 422 on `field` and is
 * marked on the response, so the per-user limiter of these routes (middleware/rate-limits.ts)
 * counts it, and only it.
 */
export async function confirmPassword(res: Response, userId: number, password: string, field = 'password'): Promise<User> {
  const user = await User.findByPk(userId)
  if (!(await checkPassword(password, user?.password)) || !user) {
    res.locals.wrongPassword = true
    throw fieldError(field, 'The password is incorrect.')
  }
  return user
}
