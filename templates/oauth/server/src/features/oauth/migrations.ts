import * as createOAuthAccounts from '../../db/migrations/oauth-0001-create-oauth-accounts.js'
import type { FeatureMigrations } from '../types/migrations.js'

export const migrations: FeatureMigrations = [{ name: 'oauth-0001-create-oauth-accounts', ...createOAuthAccounts }]
