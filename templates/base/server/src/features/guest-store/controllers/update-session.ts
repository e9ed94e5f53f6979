import type { RequestHandler } from 'express'
import { z } from 'zod'
import { HttpError, msg, security, SessionLimitError, validate } from '../../../kernel/index.js'

// Values come from JSON.parse, so they are JSON already; only their nesting is checked (below),
// without recursion: a 100 KB body can nest 50,000 levels deep, enough to overflow the stack of
// any recursive validator or of JSON.stringify.
export const updateSessionSchema = z.record(z.string().min(1, 'validation.sessionKeyEmpty').max(64, msg('validation.sessionKeyLong', { max: 64 })), z.unknown())

const notAnObject = () => new HttpError(422, 'validation.sessionObject')

function nestingWithin(value: unknown, maxDepth: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!
    if (current === null || typeof current !== 'object') continue
    if (depth >= maxDepth) return false
    for (const child of Object.values(current)) stack.push([child, depth + 1])
  }
  return true
}

/** Merges the body's keys into the guest session (a null value removes a key). */
export function updateSession(): RequestHandler {
  return async (req, res) => {
    const body: unknown = req.body
    // No JSON body merges nothing; JSON that is not an object (an array, a string, null) is refused.
    if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) throw notAnObject()
    if (!nestingWithin(body, security.sessionMaxDepth)) {
      throw new HttpError(422, msg('validation.sessionDepth', { depth: security.sessionMaxDepth }))
    }
    const patch = validate(updateSessionSchema, body)
    try {
      const data = await req.guestSession.merge(patch)
      res.json({ id: req.guestSession.id, enabled: req.guestSession.enabled, data })
    } catch (error) {
      if (error instanceof SessionLimitError) throw new HttpError(422, error.message)
      throw error
    }
  }
}
