import { Router, type RequestHandler } from 'express'
import type { AppContext } from '../../context.js'
import { addPasskey, addPasskeySchema } from './controllers/add-passkey.js'
import { listPasskeys } from './controllers/list-passkeys.js'
import { passkeySignIn, passkeySignInSchema } from './controllers/passkey-sign-in.js'
import { registrationOptions, registrationOptionsSchema } from './controllers/registration-options.js'
import { removePasskey, removePasskeySchema } from './controllers/remove-passkey.js'
import { renamePasskey, renamePasskeySchema } from './controllers/rename-passkey.js'
import { signInOptions } from './controllers/sign-in-options.js'
import { precognitive } from '../../middleware/precognition.js'
import { ipOf, limiterFactory } from '../../middleware/rate-limits.js'

/** Under /api/account/passkeys, behind authentication. */
export function passkeyAccountRoutes(ctx: AppContext, passwordChecked: RequestHandler[]): Router {
  const router = Router()
  router.get('/', listPasskeys())
  router.post('/options', precognitive(registrationOptionsSchema), ...passwordChecked, registrationOptions(ctx))
  router.post('/', precognitive(addPasskeySchema), addPasskey(ctx))
  router.patch('/:id', precognitive(renamePasskeySchema), renamePasskey())
  router.delete('/:id', precognitive(removePasskeySchema), ...passwordChecked, removePasskey(ctx))
  return router
}

/** Under /api/auth/passkey, signed out: starting a ceremony stores a challenge, so it is limited per IP, as are failed sign-ins. */
export function passkeySignInRoutes(ctx: AppContext): Router {
  const router = Router()
  const limiter = limiterFactory(ctx)
  router.post('/options', limiter({ name: 'passkey-options-ip', limit: ctx.rateLimits.passkeyOptionsPerIp, key: ipOf }), signInOptions(ctx))
  router.post('/', precognitive(passkeySignInSchema), limiter({ name: 'passkey-ip', limit: ctx.rateLimits.passkeySignInPerIp, key: ipOf, failuresOnly: true }), passkeySignIn(ctx))
  return router
}
