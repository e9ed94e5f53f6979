import * as createRoles from './0001-create-roles.js'
import * as createUsers from './0002-create-users.js'
import * as createRefreshTokens from './0003-create-refresh-tokens.js'
import * as createEmailVerificationTokens from './0004-create-email-verification-tokens.js'
import * as createPasswordResetTokens from './0005-create-password-reset-tokens.js'
import * as createSessions from './0006-create-sessions.js'
import * as createEmailChangeTokens from './0007-create-email-change-tokens.js'
import * as createOutboxJobs from './0008-create-outbox-jobs.js'
import * as createSecurityEvents from './0009-create-security-events.js'
import * as fillUsersSearch from './0010-fill-users-search.js'
import * as bindLinksToAddress from './0011-bind-links-to-address.js'
import * as markRevokingEvents from './0012-mark-revoking-events.js'
import * as recordSignInFactor from './0013-record-sign-in-factor.js'
import * as recordConfirmation from './0014-record-confirmation.js'
import * as addUserLocale from './0015-add-user-locale.js'
import * as createWebhookEndpoints from './0016-create-webhook-endpoints.js'
import * as createWebhookDeliveries from './0017-create-webhook-deliveries.js'
import * as addOutboxLanes from './0018-add-outbox-lanes.js'
import * as addWebhookBreaker from './0019-add-webhook-breaker.js'
import * as addUserSuspension from './0020-add-user-suspension.js'
import * as addSessionImpersonator from './0021-add-session-impersonator.js'
import * as addEventImpersonator from './0022-add-event-impersonator.js'
import type { FeatureMigrations } from '../../feature.js'

// A static list rather than a glob: it works the same under tsx (.ts) and compiled (.js), and
// the bundled order is the applied order. Append new migrations at the end. A migration imports
// no application code (only sequelize and files of this folder): it is history, and must not
// change when a model or a service does.
const baseMigrations = [
  { name: '0001-create-roles', ...createRoles },
  { name: '0002-create-users', ...createUsers },
  { name: '0003-create-refresh-tokens', ...createRefreshTokens },
  { name: '0004-create-email-verification-tokens', ...createEmailVerificationTokens },
  { name: '0005-create-password-reset-tokens', ...createPasswordResetTokens },
  { name: '0006-create-sessions', ...createSessions },
  { name: '0007-create-email-change-tokens', ...createEmailChangeTokens },
  { name: '0008-create-outbox-jobs', ...createOutboxJobs },
  { name: '0009-create-security-events', ...createSecurityEvents },
  { name: '0010-fill-users-search', ...fillUsersSearch },
  { name: '0011-bind-links-to-address', ...bindLinksToAddress },
  { name: '0012-mark-revoking-events', ...markRevokingEvents },
  { name: '0013-record-sign-in-factor', ...recordSignInFactor },
  { name: '0014-record-confirmation', ...recordConfirmation },
  { name: '0015-add-user-locale', ...addUserLocale },
  { name: '0016-create-webhook-endpoints', ...createWebhookEndpoints },
  { name: '0017-create-webhook-deliveries', ...createWebhookDeliveries },
  { name: '0018-add-outbox-lanes', ...addOutboxLanes },
  { name: '0019-add-webhook-breaker', ...addWebhookBreaker },
  { name: '0020-add-user-suspension', ...addUserSuspension },
  { name: '0021-add-session-impersonator', ...addSessionImpersonator },
  { name: '0022-add-event-impersonator', ...addEventImpersonator },
]

/** Base's migrations, then the feature layers', in layer order. */
export const migrationsOf = (features: readonly { migrations?: FeatureMigrations }[]): FeatureMigrations => [
  ...baseMigrations,
  ...features.flatMap((feature) => feature.migrations ?? []),
]
