import type { RequestHandler } from 'express'
import type { AppContext } from '../../../kernel/index.js'
import { startAssertion } from '../services/assertions.js'

/**
 * A passkey sign-in begins with nobody named: no `allowCredentials`, so the browser offers the
 * passkeys it holds for this site (discoverable credentials) and no address is probed. The
 * challenge rides in the signed `{name}_webauthn` cookie and is kept, hashed, for one use.
 */
export function signInOptions(ctx: AppContext): RequestHandler {
  return async (_req, res) => {
    res.json(await startAssertion(res, ctx, 'sign_in'))
  }
}
