import type { RequestHandler } from 'express'
import { z } from 'zod'
import { HttpError } from '../../http/errors.js'
import { validate } from '../../http/validate.js'
import { SessionLimitError } from '../../session/store.js'

const schema = z.record(z.string().min(1, 'Keys must not be empty.').max(64, 'Keys must not be longer than 64 characters.'), z.json())

/** Merges the body's keys into the guest session (a null value removes a key). */
export function updateSession(): RequestHandler {
  return async (req, res) => {
    const patch = validate(schema, req.body)
    try {
      const data = await req.session.merge(patch)
      res.json({ id: req.session.id, enabled: req.session.enabled, data })
    } catch (error) {
      if (error instanceof SessionLimitError) throw new HttpError(422, error.message)
      throw error
    }
  }
}
