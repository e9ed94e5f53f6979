import { DataTypes, type CreationOptional } from 'sequelize'
import { TwoFactorChallenge } from '../../models/two-factor-challenge.js'
import { TwoFactorRecoveryCode } from '../../models/two-factor-recovery-code.js'
import type { FeatureModels } from '../types/models.js'

declare module '../../models/user.js' {
  interface User {
    /** The TOTP secret, AES-256-GCM encrypted (services/two-factor/encryption.ts); in use once confirmed. */
    twoFactorSecret: CreationOptional<string | null>
    /** Set by POST /api/account/two-factor, moved to twoFactorSecret by the confirmation. */
    twoFactorPendingSecret: CreationOptional<string | null>
    twoFactorConfirmedAt: CreationOptional<Date | null>
    /** The 30-s step of the last code accepted: no code of that step or an earlier one works again. */
    twoFactorLastStep: CreationOptional<number | null>
  }
}

export const models: FeatureModels = {
  models: [TwoFactorChallenge, TwoFactorRecoveryCode],
  userAttributes: {
    twoFactorSecret: { type: DataTypes.TEXT, allowNull: true, defaultValue: null },
    twoFactorPendingSecret: { type: DataTypes.TEXT, allowNull: true, defaultValue: null },
    twoFactorConfirmedAt: { type: DataTypes.DATE, allowNull: true, defaultValue: null },
    twoFactorLastStep: { type: DataTypes.INTEGER, allowNull: true, defaultValue: null },
  },
}
