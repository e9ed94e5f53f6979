import { OAuthAccount } from '../../models/oauth-account.js'
import { OAuthFlow } from '../../models/oauth-flow.js'
import type { FeatureModels } from '../types/models.js'

export const models: FeatureModels = { models: [OAuthAccount, OAuthFlow] }
