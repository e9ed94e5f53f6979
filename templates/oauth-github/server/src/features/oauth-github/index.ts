import { defineFeature } from '../../kernel/index.js'
import { githubConfig } from '../oauth/public.js'

/** The github provider's settings; its sign-in code is oauth's (features/oauth/services/providers/github.ts). */
export const feature = defineFeature({ name: 'oauth-github', after: ['oauth'], config: githubConfig })
