import type { AppFeature } from '../../context.js'
import { config } from './config.js'

/** The oidc provider's settings; its sign-in code is oauth's (features/oauth/services/providers/oidc.ts). */
export const feature: AppFeature = { name: 'oauth-oidc', config }
