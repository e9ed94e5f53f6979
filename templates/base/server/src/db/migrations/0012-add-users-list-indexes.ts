import type { Migration } from './types.js'

/**
 * The orders and filters of the users list (services/user-list.ts): each index ends with the id,
 * the list's tie-breaker, so a sorted or filtered page walks one index in order, deep pages too,
 * and the late join reads only the page's rows.
 */
const INDEXES: Array<[string, string[]]> = [
  ['users_name_id', ['name', 'id']],
  ['users_created_at_id', ['createdAt', 'id']],
  ['users_role_id', ['roleId', 'id']],
  ['users_verified_id', ['emailVerifiedAt', 'id']],
]

export const up: Migration = async ({ context: queryInterface }) => {
  for (const [name, fields] of INDEXES) await queryInterface.addIndex('users', fields, { name })
}

export const down: Migration = async ({ context: queryInterface }) => {
  for (const [name] of INDEXES) await queryInterface.removeIndex('users', name)
}
