import type { RequestHandler } from 'express'
import type { z } from 'zod'
import { validationError } from './errors.js'
import { bodyObject, toFieldErrors } from './validate.js'

/**
 * Laravel Precognition: with `Precognition: true` the route's own schema checks the body and
 * nothing else runs (no handler, no write, no mail, no rate-limit count), so live validation
 * can never drift from the real one. Goes after authentication and before the rate limiters.
 * `Precognition-Validate-Only: email,password` reports only those fields (and their children).
 */
export function precognitive(schema: z.ZodType | ((body: object) => z.ZodType)): RequestHandler {
  return async (req, res, next) => {
    res.vary('Precognition')
    if (req.get('precognition') !== 'true') return next()
    res.setHeader('Precognition', 'true')
    const body = bodyObject(req.body)
    const result = await (typeof schema === 'function' ? schema(body) : schema).safeParseAsync(body)
    const only = req.get('precognition-validate-only')?.split(',').map((field) => field.trim()).filter(Boolean)
    const errors = Object.entries(result.success ? {} : toFieldErrors(result.error)).filter(
      ([key]) => !only || only.some((field) => key === field || key.startsWith(`${field}.`)),
    )
    if (errors.length > 0) throw validationError(Object.fromEntries(errors))
    res.setHeader('Precognition-Success', 'true')
    res.status(204).end()
  }
}
