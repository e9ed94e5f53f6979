import type { RequestHandler } from 'express'
import { z } from 'zod'
import { events, fieldError, findUserById, idField, keepingAnAdmin, nameField, notFound, recordCredentialEvent, roleId, saveUserChanges, validate, type AppContext } from '../../../kernel/index.js'
import { adminUserJson } from './suspension.js'

export const updateUserSchema = z.object({
  name: nameField.optional(),
  role: z.enum(['admin', 'user'], { error: 'validation.role' }).optional(),
})

/** A role change applies to the user's very next request (the authentication cache drops the user everywhere). */
export function updateUser(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const id = idField.safeParse(req.params.id)
    if (!id.success) throw notFound()
    const input = validate(updateUserSchema, req.body)
    const user = await findUserById(id.data)
    if (!user) throw notFound()
    if (input.role === 'user' && user.id === req.auth!.id) throw fieldError('role', 'users.demoteSelf')
    const name = input.name === undefined ? {} : { name: input.name }
    const newRoleId = input.role === undefined ? undefined : await roleId(input.role)
    if (newRoleId === undefined || newRoleId === user.roleId) {
      await saveUserChanges(ctx, user, name)
    } else {
      await keepingAnAdmin(
        (transaction) =>
          recordCredentialEvent(ctx, events.roleChanged, user.id, {
            req,
            userChanged: true,
            meta: { from: user.Role?.name ?? null, to: input.role, by: req.auth!.id },
            transaction,
            change: () => user.update({ ...name, roleId: newRoleId }, { transaction }),
          }),
        'role',
      )
    }
    res.json({ user: adminUserJson((await findUserById(user.id)) ?? user) })
  }
}
