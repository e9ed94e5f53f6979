import { Op, type Sequelize, type Transaction } from 'sequelize'

/**
 * Credentials mailed or started but not yet used: verification, e-mail change and password reset
 * links in base, and what feature layers keep (a sign-in waiting for its second step, a passkey or
 * provider sign-in under way). A model joins by declaring `static readonly pendingCredential = true` and a `userId`
 * column: then every event that revokes sessions deletes the user's rows, and no flow can
 * forget one (an e-mail change link, then a choose-a-password link, surviving a password change
 * was how an account was taken). A model whose rows must outlive their link names the column
 * that voids them instead (`pendingCredential = 'voidedAt'`).
 */
interface PendingCredentialModel {
  pendingCredential?: true | string
  destroy(options: { where: Record<string, unknown>; transaction?: Transaction }): Promise<number>
  update(values: Record<string, unknown>, options: { where: Record<string, unknown>; transaction?: Transaction }): Promise<unknown>
}

export function pendingCredentialModels(sequelize: Sequelize): PendingCredentialModel[] {
  return Object.values(sequelize.models).filter((model) => (model as unknown as PendingCredentialModel).pendingCredential !== undefined) as unknown as PendingCredentialModel[]
}

export async function voidPendingCredentials(sequelize: Sequelize, userIds: number[], transaction?: Transaction): Promise<void> {
  for (const model of pendingCredentialModels(sequelize)) {
    const where = { userId: { [Op.in]: userIds } }
    const column = model.pendingCredential
    if (column === true) await model.destroy({ where, transaction })
    else await model.update({ [column!]: new Date() }, { where: { ...where, [column!]: null }, transaction })
  }
}
