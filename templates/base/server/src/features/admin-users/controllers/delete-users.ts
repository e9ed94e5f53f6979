import type { RequestHandler } from 'express'
import { bodyObject, deleteMatchingUsers, deleteUsersById, fieldError, idField, idList, msg, searchQuery, validate, type AppContext } from '../../../kernel/index.js'
import { z } from 'zod'
import { userFilter } from './user-query.js'

export const byIds = z.object({ ids: idList })

export const allMatching = z.object({
  all: z.literal(true, { error: 'validation.allTrue' }),
  search: searchQuery,
  filter: userFilter,
  except: z.array(idField, { error: msg('validation.idList', { field: 'except' }) }).max(10_000, msg('validation.idListLong', { field: 'except', max: 10_000 })).default([]),
})

/** `{ids}` or `{all: true, search?, filter?, except?}`: the body says which by carrying `all`. */
export const deleteUsersSchema = (body: object) => ('all' in body ? allMatching : byIds)

export function deleteUsers(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    // The JSON parser is not strict: a body may be a string, a number or `true`, on which `in`
    // throws. Like every other body that is not an object, it is validated as `{}` (a 422).
    const body = bodyObject(req.body)
    if ('all' in body) {
      const input = validate(allMatching, body)
      // The caller is never among "all matching": deleting oneself is the account page's job.
      const deleted = await deleteMatchingUsers(ctx, req, input, new Set([...input.except, req.auth!.id]))
      res.json({ deleted })
      return
    }
    const ids = [...new Set(validate(byIds, body).ids)]
    if (ids.includes(req.auth!.id)) throw fieldError('ids', 'users.deleteSelf')
    res.json({ deleted: await deleteUsersById(ctx, req, ids) })
  }
}
