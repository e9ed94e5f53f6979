import type { Sequelize } from 'sequelize'
import { featureModels } from '../features/models.js'
import { EmailChangeToken, EmailVerificationToken, PasswordResetToken } from './one-time-token.js'
import { OutboxJob } from './outbox-job.js'
import { RefreshToken } from './refresh-token.js'
import { Role } from './role.js'
import { SecurityEvent } from './security-event.js'
import { Session } from './session.js'
import { User } from './user.js'

export { EmailChangeToken, EmailVerificationToken, OutboxJob, PasswordResetToken, RefreshToken, Role, SecurityEvent, Session, User }
export type { OneTimeToken } from './one-time-token.js'
export type { RoleName } from './role.js'

let boundTo: Sequelize | undefined

/**
 * Binds the model classes to a connection. The classes are module singletons, so a process
 * (or a test file) works with one Sequelize instance at a time.
 */
export function initModels(sequelize: Sequelize): void {
  if (boundTo === sequelize) return
  boundTo = sequelize
  Role.initModel(sequelize)
  User.initModel(sequelize, Object.assign({}, ...featureModels.map((feature) => feature.userAttributes)))
  RefreshToken.initModel(sequelize)
  EmailVerificationToken.initModel(sequelize)
  PasswordResetToken.initModel(sequelize)
  EmailChangeToken.initModel(sequelize)
  Session.initModel(sequelize)
  OutboxJob.initModel(sequelize)
  SecurityEvent.initModel(sequelize)
  for (const feature of featureModels) for (const model of feature.models) model.initModel(sequelize)
  User.belongsTo(Role, { foreignKey: 'roleId', as: 'Role' })
}
