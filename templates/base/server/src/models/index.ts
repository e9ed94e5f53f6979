import type { Sequelize } from 'sequelize'
import type { FeatureModels, UserFields } from '../kernel/feature.js'
import { EmailChangeToken, EmailVerificationToken, PasswordResetToken } from './one-time-token.js'
import { OutboxJob } from './outbox-job.js'
import { RefreshToken } from './refresh-token.js'
import { Role } from './role.js'
import { SecurityEvent } from './security-event.js'
import { Session } from './session.js'
import { User } from './user.js'
import { WebhookDelivery } from './webhook-delivery.js'
import { WebhookEndpoint } from './webhook-endpoint.js'
import { bindUserFields } from './user-fields.js'

export { EmailChangeToken, EmailVerificationToken, OutboxJob, PasswordResetToken, RefreshToken, Role, SecurityEvent, Session, User, WebhookDelivery, WebhookEndpoint }
export type { OneTimeToken } from './one-time-token.js'
export type { RoleName } from './role.js'

let boundTo: Sequelize | undefined

/** What binding reads of the feature layers: their tables, their columns on `users` and their user fields. */
export type ModelFeatures = readonly { models?: FeatureModels; userFields?: UserFields }[]

/**
 * Binds the model classes (base's and the feature layers') to a connection. The classes are
 * module singletons, so a process (or a test file) works with one Sequelize instance at a time.
 */
export function initModels(sequelize: Sequelize, features: ModelFeatures): void {
  if (boundTo === sequelize) return
  boundTo = sequelize
  bindUserFields(features.flatMap((feature) => (feature.userFields ? [feature.userFields] : [])))
  Role.initModel(sequelize)
  User.initModel(sequelize, Object.assign({}, ...features.map((feature) => feature.models?.userAttributes)))
  RefreshToken.initModel(sequelize)
  EmailVerificationToken.initModel(sequelize)
  PasswordResetToken.initModel(sequelize)
  EmailChangeToken.initModel(sequelize)
  Session.initModel(sequelize)
  OutboxJob.initModel(sequelize)
  SecurityEvent.initModel(sequelize)
  WebhookEndpoint.initModel(sequelize)
  WebhookDelivery.initModel(sequelize)
  for (const feature of features) for (const model of feature.models?.models ?? []) model.initModel(sequelize)
  User.belongsTo(Role, { foreignKey: 'roleId', as: 'Role' })
}
