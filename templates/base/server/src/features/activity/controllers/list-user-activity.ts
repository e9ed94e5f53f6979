import type { RequestHandler } from 'express'
import { activityPage, activityQuery, idField, notFound, User, validate } from '../../../kernel/index.js'

/** A user's security activity, for an admin. */
export function listUserActivity(): RequestHandler {
  return async (req, res) => {
    const id = idField.safeParse(req.params.id)
    if (!id.success || !(await User.findByPk(id.data, { attributes: ['id'] }))) throw notFound()
    const { page, size } = validate(activityQuery, req.query)
    res.json({ data: await activityPage(id.data, page, size, `/api/users/${id.data}/activity`, req.sessionId) })
  }
}
