import { Router, type RequestHandler } from 'express'
import { type AppContext, precognitive, requireConfirmed } from '../../kernel/index.js'
import { createApiKey, createApiKeySchema } from './controllers/create-api-key.js'
import { listApiKeys } from './controllers/list-api-keys.js'
import { renameApiKey, renameApiKeySchema } from './controllers/rename-api-key.js'
import { revokeApiKey } from './controllers/revoke-api-key.js'

/**
 * Under /api/account/api-keys, behind authentication and for sessions only (the kernel refuses a
 * key every account route: no key makes or revokes keys). Making one needs step-up.
 */
export function apiKeyAccountRoutes(ctx: AppContext, passwordChecked: RequestHandler[]): Router {
  const router = Router()
  router.get('/', listApiKeys())
  router.post('/', precognitive(createApiKeySchema), ...passwordChecked, requireConfirmed(ctx), createApiKey(ctx))
  router.patch('/:id', precognitive(renameApiKeySchema), renameApiKey())
  router.delete('/:id', revokeApiKey(ctx))
  return router
}
