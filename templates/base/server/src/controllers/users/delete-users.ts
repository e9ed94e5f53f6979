import type { RequestHandler } from 'express'
import type { AppConfig } from '../../context.js'
import { z } from 'zod'
import { fieldError } from '../../http/errors.js'
import { idList } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { User } from '../../models/index.js'
import { revokeSessions } from '../../services/sessions.js'

const schema = z.object({ ids: idList })

export function deleteUsers(config: AppConfig): RequestHandler {
  return async (req, res) => {
    const ids = [...new Set(validate(schema, req.body).ids)]
    if (req.auth && ids.includes(req.auth.id)) throw fieldError('ids', 'You cannot delete your own account.')
    // Sessions end with the account, not only when their tokens' user id is nulled by the cascade.
    await revokeSessions(config, ids)
    const deleted = await User.destroy({ where: { id: ids } })
    for (const id of ids) config.authCache.userChanged(id)
    res.json({ deleted })
  }
}
