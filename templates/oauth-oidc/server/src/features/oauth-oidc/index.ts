import { defineFeature } from '../../kernel/index.js'
import { oidcConfig } from '../oauth/public.js'

/** The oidc provider's settings; its sign-in code is oauth's (features/oauth/services/providers/oidc.ts). */
export const feature = defineFeature({ name: 'oauth-oidc', after: ['oauth'], config: oidcConfig })
