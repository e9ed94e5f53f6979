import { Router, type RequestHandler } from 'express'
import { type AppContext, ipOf, limiterFactory, precognitive, rateLimitsOf, requireConfirmed } from '../../kernel/index.js'
import { config } from './config.js'
import { addPasskey, addPasskeySchema } from './controllers/add-passkey.js'
import { confirmByPasskey, confirmByPasskeySchema } from './controllers/confirm-by-passkey.js'
import { confirmOptions } from './controllers/confirm-options.js'
import { listPasskeys } from './controllers/list-passkeys.js'
import { passkeySignIn, passkeySignInSchema } from './controllers/passkey-sign-in.js'
import { registrationOptions, registrationOptionsSchema } from './controllers/registration-options.js'
import { removePasskey, removePasskeySchema } from './controllers/remove-passkey.js'
import { renamePasskey, renamePasskeySchema } from './controllers/rename-passkey.js'
import { signInOptions } from './controllers/sign-in-options.js'

/** Under /api/account/passkeys, behind authentication. */
export function passkeyAccountRoutes(ctx: AppContext, passwordChecked: RequestHandler[]): Router {
  const router = Router()
  router.get('/', listPasskeys())
  // Step-up on adding and removing; the password these requests carry still confirms.
  const confirmed = [...passwordChecked, requireConfirmed(ctx, { passwordField: 'password' })]
  router.post('/options', precognitive(registrationOptionsSchema), ...confirmed, registrationOptions(ctx))
  router.post('/', precognitive(addPasskeySchema), addPasskey(ctx))
  router.patch('/:id', precognitive(renamePasskeySchema), renamePasskey())
  router.delete('/:id', precognitive(removePasskeySchema), ...confirmed, removePasskey(ctx))
  return router
}

/** Under /api/account/confirm/passkey, behind authentication: confirming it is you with a passkey (step-up). */
export function passkeyConfirmRoutes(ctx: AppContext, passwordChecked: RequestHandler[]): Router {
  const router = Router()
  router.post('/options', confirmOptions(ctx))
  router.post('/', precognitive(confirmByPasskeySchema), ...passwordChecked, confirmByPasskey(ctx))
  return router
}

/** Under /api/auth/passkey, signed out: starting a ceremony stores a challenge, so it is limited per IP, as are failed sign-ins. */
export function passkeySignInRoutes(ctx: AppContext): Router {
  const router = Router()
  const limiter = limiterFactory(ctx)
  router.post('/options', limiter({ name: 'passkey-options-ip', limit: rateLimitsOf(config, ctx).passkeyOptionsPerIp, key: ipOf }), signInOptions(ctx))
  router.post('/', precognitive(passkeySignInSchema), limiter({ name: 'passkey-ip', limit: rateLimitsOf(config, ctx).passkeySignInPerIp, key: ipOf, failuresOnly: true }), passkeySignIn(ctx))
  return router
}
