import { defineFeature } from '../../kernel/index.js'
import { googleConfig } from '../oauth/public.js'

/** The google provider's settings; its sign-in code is oauth's (features/oauth/services/providers/google.ts). */
export const feature = defineFeature({ name: 'oauth-google', after: ['oauth'], config: googleConfig })
