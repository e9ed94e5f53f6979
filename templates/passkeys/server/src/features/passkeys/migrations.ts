import * as createPasskeys from '../../db/migrations/passkeys-0001-create-passkeys.js'
import type { FeatureMigrations } from '../types/migrations.js'

export const migrations: FeatureMigrations = [{ name: 'passkeys-0001-create-passkeys', ...createPasskeys }]
