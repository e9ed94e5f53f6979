import { defineFeature } from '../../kernel/index.js'

/** API keys: personal keys with scopes, sent as `Authorization: Bearer cca_…` by scripts and servers. */
export const feature = defineFeature({
  name: 'api-keys',
})
