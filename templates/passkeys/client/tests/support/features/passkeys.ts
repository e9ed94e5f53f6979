import type { FeatureUserFields } from '@/types'

// Only this layer's fields: with other layers on, FeatureUserFields holds theirs too.
export const userFields: Pick<FeatureUserFields, 'passkeys'> = { passkeys: 0 }
