import { Op, type Sequelize, type Transaction } from 'sequelize'

/**
 * Credentials mailed or started but not yet used: e-mail change and password reset links in
 * base, and what feature layers keep (a sign-in waiting for its second step, a passkey or
 * provider sign-in under way). A model joins by declaring `static readonly pendingCredential = true` and a `userId`
 * column: then every event that revokes sessions deletes the user's rows, and no flow can
 * forget one (an e-mail change link surviving a password reset was how an account was taken).
 */
interface PendingCredentialModel {
  pendingCredential?: boolean
  destroy(options: { where: Record<string, unknown>; transaction?: Transaction }): Promise<number>
}

export function pendingCredentialModels(sequelize: Sequelize): PendingCredentialModel[] {
  return Object.values(sequelize.models).filter((model) => (model as unknown as PendingCredentialModel).pendingCredential === true) as unknown as PendingCredentialModel[]
}

export async function voidPendingCredentials(sequelize: Sequelize, userIds: number[], transaction?: Transaction): Promise<void> {
  for (const model of pendingCredentialModels(sequelize)) await model.destroy({ where: { userId: { [Op.in]: userIds } }, transaction })
}
