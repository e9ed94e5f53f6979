import { idField } from '../../../kernel/index.js'
import { ApiKey } from '../models/api-key.js'

/** A live key of the user by its id: another user's, a revoked one or a made-up id are all unknown. */
export async function findOwnKey(userId: number, id: string): Promise<ApiKey | null> {
  const parsed = idField.safeParse(id)
  return parsed.success ? ApiKey.findOne({ where: { id: parsed.data, userId, revokedAt: null } }) : null
}
