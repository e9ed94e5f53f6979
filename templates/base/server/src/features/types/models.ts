// The type of an extension point (features/types/<point>.ts, filled by features/<layer>/<point>.ts).
import type { ModelAttributes, Sequelize } from 'sequelize'

/** `models.ts`: the layer's tables, and the columns it adds to `users` (declare them on `User` too). */
export interface FeatureModels {
  models: { initModel(sequelize: Sequelize): void }[]
  userAttributes?: ModelAttributes
}
