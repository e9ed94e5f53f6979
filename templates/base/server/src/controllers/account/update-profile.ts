import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppContext } from '../../context.js'
import { unauthenticated } from '../../http/errors.js'
import { nameField } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { findUserById, serializeUser } from '../../services/users.js'
import { saveUserChanges } from '../../services/user-updates.js'

export const updateProfileSchema = z.object({ name: nameField })

export function updateProfile(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { name } = validate(updateProfileSchema, req.body)
    const user = await findUserById(req.auth!.id)
    if (!user) throw unauthenticated()
    await saveUserChanges(ctx, user, { name })
    res.json({ user: serializeUser(user) })
  }
}
