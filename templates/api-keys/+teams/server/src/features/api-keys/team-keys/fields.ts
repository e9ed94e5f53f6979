import { z } from 'zod'
import { apiKeyNameField, expiresInField, scopesField } from '../services/fields.js'
import { TEAM_ROLES } from '../../teams/public.js'

export const createTeamKeySchema = z.object({
  name: apiKeyNameField,
  // A team's key reads and writes in its team; the app's admin routes are outside it, so no `admin`.
  scopes: scopesField.refine((scopes) => !scopes.includes('admin'), 'teamApiKeys.scopes'),
  /** The most the key may do in the team; absent: its maker's role. Never above the maker's. */
  role: z.enum(TEAM_ROLES, { error: 'teamApiKeys.role' }).optional(),
  expires_in: expiresInField,
})
