import type { RequestHandler } from 'express'
import { z } from 'zod'
import type { AppConfig } from '../../context.js'
import { fieldError, notFound } from '../../http/errors.js'
import { idField, nameField } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { findUserById, roleId, serializeUser } from '../../services/users.js'

export const updateUserSchema = z.object({
  name: nameField.optional(),
  role: z.enum(['admin', 'user'], { error: 'The role must be admin or user.' }).optional(),
})

/** A role change applies to the user's very next request (the authentication cache drops the user everywhere). */
export function updateUser(config: AppConfig): RequestHandler {
  return async (req, res) => {
    const id = idField.safeParse(req.params.id)
    if (!id.success) throw notFound()
    const input = validate(updateUserSchema, req.body)
    const user = await findUserById(id.data)
    if (!user) throw notFound()
    if (input.role === 'user' && user.id === req.auth!.id) throw fieldError('role', 'You cannot remove your own admin role.')
    await user.update({
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.role === undefined ? {} : { roleId: await roleId(input.role) }),
    })
    config.authCache.userChanged(user.id)
    res.json({ user: serializeUser((await findUserById(user.id)) ?? user) })
  }
}
