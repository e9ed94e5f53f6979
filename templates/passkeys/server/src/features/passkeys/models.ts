import { DataTypes, type CreationOptional } from 'sequelize'
import { Passkey } from '../../models/passkey.js'
import { PasskeyChallenge } from '../../models/passkey-challenge.js'
import type { FeatureModels } from '../types/models.js'

declare module '../../models/user.js' {
  interface User {
    /** How many passkeys the user has, kept with every add and removal (services/passkeys/passkey-rows.ts). */
    passkeyCount: CreationOptional<number>
  }
}

export const models: FeatureModels = {
  models: [Passkey, PasskeyChallenge],
  userAttributes: {
    passkeyCount: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
  },
}
