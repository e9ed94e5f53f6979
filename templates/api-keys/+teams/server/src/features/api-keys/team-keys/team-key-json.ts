import type { ApiKey } from '../models/api-key.js'
import { apiKeyJson, type ApiKeyJson } from '../services/api-key-json.js'

export interface TeamKeyJson extends ApiKeyJson {
  /** The most it may do in the team; its maker's role there may narrow it further. */
  role: string
  /** The user id of the member who made it: the key acts as them, within the team. */
  createdBy: number
}

export const teamKeyJson = (key: ApiKey): TeamKeyJson => ({ ...apiKeyJson(key), role: key.role ?? 'member', createdBy: key.userId })
