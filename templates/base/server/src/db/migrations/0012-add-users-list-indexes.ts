import type { Migration } from './types.js'

/**
 * The orders and filters of the users list (services/user-list.ts). Each sort key gets two
 * indexes, one led by the key and one by the role (the equality filter), both ending with the
 * id (the tie-breaker) and the columns the filters test. A sorted, filtered page then walks one
 * index in order and reads no row until the late join, so a deep page skips index entries only:
 * page 5,000 of 100,000 users in a few milliseconds, filtered or not.
 */
const INDEXES: Array<[string, string[]]> = [
  ['users_id_filters', ['id', 'roleId', 'emailVerifiedAt']],
  ['users_role_id_filters', ['roleId', 'id', 'emailVerifiedAt']],
  ['users_name_filters', ['name', 'id', 'roleId', 'emailVerifiedAt']],
  ['users_role_name_filters', ['roleId', 'name', 'id', 'emailVerifiedAt']],
  ['users_email_filters', ['email', 'id', 'roleId', 'emailVerifiedAt']],
  ['users_role_email_filters', ['roleId', 'email', 'id', 'emailVerifiedAt']],
  ['users_created_filters', ['createdAt', 'id', 'roleId', 'emailVerifiedAt']],
  ['users_role_created_filters', ['roleId', 'createdAt', 'id', 'emailVerifiedAt']],
]

export const up: Migration = async ({ context: queryInterface }) => {
  for (const [name, fields] of INDEXES) await queryInterface.addIndex('users', fields, { name })
}

export const down: Migration = async ({ context: queryInterface }) => {
  for (const [name] of INDEXES) await queryInterface.removeIndex('users', name)
}
