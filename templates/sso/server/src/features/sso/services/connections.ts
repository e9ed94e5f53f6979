import { SsoConnection } from '../models/sso-connection.js'

/** A connection as the team's owners and admins see it: what it is and how it behaves, never a secret. */
export interface ConnectionJson {
  type: string
  default_role: string
  require_sso: boolean
}

export const connectionJson = (row: SsoConnection): ConnectionJson => ({ type: row.type, default_role: row.defaultRole, require_sso: row.requireSso })

export const teamConnection = (teamId: number) => SsoConnection.findOne({ where: { teamId } })
