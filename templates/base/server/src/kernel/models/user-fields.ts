import type { UserFields } from '../feature.js'

/**
 * What the feature layers add to a user's JSON, bound with the models (kernel/models/index.ts): the
 * serializer on the hot paths (kernel/services/users.ts) reads it from here, as queries read the models,
 * rather than being handed the layers at every call.
 */
let bound: readonly UserFields[] = []

export function bindUserFields(fields: readonly UserFields[]): void {
  bound = fields
}

export const boundUserFields = (): readonly UserFields[] => bound
