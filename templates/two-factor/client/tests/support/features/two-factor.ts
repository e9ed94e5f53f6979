import type { FeatureUserFields } from '@/types'

export const userFields: Pick<FeatureUserFields, 'twoFactorEnabled'> = { twoFactorEnabled: false }
