import type { AppContext } from '../../kernel/context.js'
import type { RouteDocs } from '../../kernel/openapi/types.js'
import { accountRouteDocs } from './account.js'
import { adminRouteDocs } from './admin.js'
import { apiRouteDocs } from './api.js'
import { authRouteDocs } from './auth.js'
import { webhookRouteDocs } from './webhooks.js'

/**
 * Base's routes, by area: a new area of base adds its list here (a layer's go through its
 * feature's `openapi` instead). The app's tests fail on a mounted route that no list describes.
 */
export const baseRouteDocs: RouteDocs<AppContext>[] = [
  apiRouteDocs,
  authRouteDocs,
  accountRouteDocs,
  adminRouteDocs,
  webhookRouteDocs,
]
