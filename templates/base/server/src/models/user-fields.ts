import type { UserFields } from '../kernel/feature.js'

/**
 * What the feature layers add to a user's JSON, bound with the models (models/index.ts): the
 * serializer on the hot paths (services/users.ts) reads it from here, as queries read the models,
 * rather than being handed the layers at every call.
 */
let bound: readonly UserFields[] = []

export function bindUserFields(fields: readonly UserFields[]): void {
  bound = fields
}

export const boundUserFields = (): readonly UserFields[] => bound
