import type { Request } from 'express'
import { type AppContext, recordCredentialEvent, User } from '../../../kernel/index.js'
import { ssoEvents } from '../events.js'
import { SsoConnection } from '../models/sso-connection.js'
import type { IdpSettings } from './idp-metadata.js'

type Deps = Pick<AppContext, 'queue' | 'authCache' | 'features' | 'webhooks'>

/** A connection as the team's owners and admins see it: what it is and how it behaves, never a secret. */
export interface ConnectionJson {
  type: string
  default_role: string
  require_sso: boolean
  idp_entity_id: string
  sso_url: string
}

export const samlSettings = (row: SsoConnection): IdpSettings => JSON.parse(row.settings) as IdpSettings

export function connectionJson(row: SsoConnection): ConnectionJson {
  const idp = samlSettings(row)
  return { type: row.type, default_role: row.defaultRole, require_sso: row.requireSso, idp_entity_id: idp.entityId, sso_url: idp.ssoUrl }
}

export const teamConnection = (teamId: number) => SsoConnection.findOne({ where: { teamId } })

export interface ConnectionInput {
  idp: IdpSettings
  defaultRole: string
  requireSso: boolean
}

/** The owner sets the team's one connection up, or replaces it. */
export function saveConnection(ctx: Deps, req: Request, teamId: number, input: ConnectionInput): Promise<SsoConnection> {
  return User.sequelize!.transaction(async (transaction) => {
    const values = { type: 'saml' as const, settings: JSON.stringify(input.idp), defaultRole: input.defaultRole, requireSso: input.requireSso }
    const existing = await SsoConnection.findOne({ where: { teamId }, transaction, lock: transaction.LOCK.UPDATE })
    const row = existing ? await existing.update(values, { transaction }) : await SsoConnection.create({ teamId, ...values }, { transaction })
    await recordCredentialEvent(ctx, ssoEvents.connectionSaved, req.auth!.id, {
      req,
      meta: { teamId, type: 'saml', idp: input.idp.entityId, requireSso: input.requireSso },
      transaction,
    })
    return row
  })
}

/** Removes the team's connection, if it has one: the domains' addresses sign in as anyone else's again. */
export function deleteConnection(ctx: Deps, req: Request, teamId: number): Promise<void> {
  return User.sequelize!.transaction(async (transaction) => {
    const removed = await SsoConnection.destroy({ where: { teamId }, transaction })
    if (removed > 0) await recordCredentialEvent(ctx, ssoEvents.connectionDeleted, req.auth!.id, { req, meta: { teamId }, transaction })
  })
}
