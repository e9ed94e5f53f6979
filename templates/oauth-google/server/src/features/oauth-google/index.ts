import { defineFeature } from '../../kernel/index.js'
import { config } from './config.js'

/** The google provider's settings; its sign-in code is oauth's (features/oauth/services/providers/google.ts). */
export const feature = defineFeature({ name: 'oauth-google', after: ['oauth'], config })
