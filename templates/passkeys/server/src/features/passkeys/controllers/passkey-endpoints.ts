import type { RequestHandler } from 'express'
import { passkeys } from '../settings.js'
import type { AppContext } from '../../../kernel/index.js'

/**
 * The W3C "Passkey Endpoints" well-known document: where password managers send people to add a
 * passkey here, and to manage them.
 */
export function passkeyEndpoints(ctx: AppContext): RequestHandler {
  const page = `${ctx.env.BASE_URL}${passkeys.settingsPath}`
  const body = JSON.stringify({ enroll: page, manage: page })
  return (_req, res) => {
    res.type('application/json').send(body)
  }
}
