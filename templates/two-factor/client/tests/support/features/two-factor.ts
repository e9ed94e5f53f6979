import type { FeatureUserFields } from '@/types'

export const userFields: FeatureUserFields = { twoFactorEnabled: false }
