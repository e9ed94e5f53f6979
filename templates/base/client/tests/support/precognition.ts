import type { Received, Reply } from './server'

type Rule = (value: any) => string | undefined

/**
 * A route that answers the way the server's precognition middleware does: a request with
 * `Precognition: true` gets 204 + `Precognition-Success: true`, or 422 with the errors of the
 * fields in `Precognition-Validate-Only` (of every field without it). Anything else is `real`.
 */
export function precognitive(rules: Record<string, Rule>, real: Reply = { body: { saved: true } }) {
  return (req: Received): Reply => {
    if (req.headers.precognition !== 'true') return real
    const only = String(req.headers['precognition-validate-only'] ?? '').split(',').filter(Boolean)
    const errors: Record<string, string[]> = {}
    for (const [field, rule] of Object.entries(rules)) {
      const message = rule(req.json?.[field])
      if (message && (!only.length || only.includes(field))) errors[field] = [message]
    }
    const headers = { precognition: 'true', vary: 'Precognition' }
    return Object.keys(errors).length
      ? { status: 422, headers, body: { message: 'Invalid.', errors } }
      : { status: 204, headers: { ...headers, 'precognition-success': 'true' } }
  }
}

export const isPrecognitive = (req: Received) => req.headers.precognition === 'true'
