import * as addTwoFactor from '../../db/migrations/two-factor-0001-add-two-factor.js'
import type { FeatureMigrations } from '../types/migrations.js'

export const migrations: FeatureMigrations = [{ name: 'two-factor-0001-add-two-factor', ...addTwoFactor }]
