import { DataTypes, type CreationOptional } from 'sequelize'
import { defineFeature } from '../../kernel/index.js'
import { twoFactorEvents } from './events.js'
import { config } from './config.js'
import * as addTwoFactor from './migrations/0001-add-two-factor.js'
import * as challengeFirstFactor from './migrations/0002-challenge-first-factor.js'
import { TwoFactorChallenge } from './models/two-factor-challenge.js'
import { TwoFactorRecoveryCode } from './models/two-factor-recovery-code.js'
import { twoFactorAccountRoutes, twoFactorChallengeRoute } from './routes.js'
import { startChallenge } from './services/challenges.js'
import { confirmByCode } from './services/confirm-by-code.js'
import { de } from './messages/de.js'
import { en } from './messages/en.js'

declare module '../../kernel/models/user.js' {
  interface User {
    /** The TOTP secret, AES-256-GCM encrypted (kernel/security/encryption.ts); in use once confirmed. */
    twoFactorSecret: CreationOptional<string | null>
    /** Set by POST /api/account/two-factor, moved to twoFactorSecret by the confirmation. */
    twoFactorPendingSecret: CreationOptional<string | null>
    twoFactorConfirmedAt: CreationOptional<Date | null>
    /** The 30-s step of the last code accepted: no code of that step or an earlier one works again. */
    twoFactorLastStep: CreationOptional<number | null>
  }
}

/** TOTP two-factor authentication: enable, confirm, disable, recovery codes, and a challenge after the password. */
export const feature = defineFeature({
  name: 'two-factor',
  messages: { en, de },
  config,
  models: {
    models: [TwoFactorChallenge, TwoFactorRecoveryCode],
    userAttributes: {
      twoFactorSecret: { type: DataTypes.TEXT, allowNull: true, defaultValue: null },
      twoFactorPendingSecret: { type: DataTypes.TEXT, allowNull: true, defaultValue: null },
      twoFactorConfirmedAt: { type: DataTypes.DATE, allowNull: true, defaultValue: null },
      twoFactorLastStep: { type: DataTypes.INTEGER, allowNull: true, defaultValue: null },
    },
  },
  // Released migrations keep their names: the database records them by name.
  migrations: [
    { name: 'two-factor-0001-add-two-factor', ...addTwoFactor },
    { name: 'two-factor-0002-challenge-first-factor', ...challengeFirstFactor },
  ],
  userFields: {
    columns: ['u."twoFactorConfirmedAt"'],
    fromRow: (row) => ({ twoFactorEnabled: Boolean(row.twoFactorConfirmedAt) }),
    fromModel: (user) => ({ twoFactorEnabled: Boolean(user.twoFactorConfirmedAt) }),
  },
  /** An account with two-factor on gets a challenge (the `{name}_2fa` cookie) instead of a session. */
  async loginStep(_req, res, ctx, user, remember, factor) {
    if (user.json.twoFactorEnabled !== true) return undefined
    await startChallenge(res, ctx, user.identity.id, remember, factor)
    return { body: { two_factor: true }, page: '/two-factor-challenge' }
  },
  openapi: async () => (await import('./openapi.js')).routeDocs,
  routes: {
    auth: (router, ctx) => router.post('/two-factor-challenge', ...twoFactorChallengeRoute(ctx)),
    account: (router, ctx, passwordChecked) => router.use('/two-factor', twoFactorAccountRoutes(ctx, passwordChecked)),
  },
  credentialTokens: [
    // A sign-in waiting for its second step.
    { model: TwoFactorChallenge, grants: 'sign-in', pending: true },
    // Replaced by their own flow (new codes, two-factor off), not by sign-outs.
    { model: TwoFactorRecoveryCode, grants: 'sign-in', pending: false },
  ],
  confirmMethods: [confirmByCode],
  events: twoFactorEvents,
})
