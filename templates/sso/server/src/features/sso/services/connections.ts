import type { Request } from 'express'
import { type AppContext, recordCredentialEvent, User } from '../../../kernel/index.js'
import { ssoEvents } from '../events.js'
import { SsoConnection } from '../models/sso-connection.js'
import type { IdpSettings } from './idp-metadata.js'
import { oidcSettings, type OidcSettings } from './oidc-client.js'

type Deps = Pick<AppContext, 'queue' | 'authCache' | 'features' | 'webhooks'>

/** A connection as the team's owners and admins see it: what it is and how it behaves, never a secret. */
export type ConnectionJson = { default_role: string; require_sso: boolean } & (
  | { type: 'saml'; idp_entity_id: string; sso_url: string; allow_idp_initiated: boolean }
  | { type: 'oidc'; issuer: string; client_id: string }
)

export const samlSettings = (row: SsoConnection): IdpSettings => JSON.parse(row.settings) as IdpSettings

export function connectionJson(row: SsoConnection): ConnectionJson {
  const common = { default_role: row.defaultRole, require_sso: row.requireSso }
  if (row.type === 'oidc') {
    const oidc = oidcSettings(row)
    return { type: 'oidc', issuer: oidc.issuer, client_id: oidc.clientId, ...common }
  }
  const idp = samlSettings(row)
  return { type: 'saml', ...common, idp_entity_id: idp.entityId, sso_url: idp.ssoUrl, allow_idp_initiated: idp.allowIdpInitiated === true }
}

export const teamConnection = (teamId: number) => SsoConnection.findOne({ where: { teamId } })

export type ConnectionInput = { defaultRole: string; requireSso: boolean } & ({ type: 'saml'; idp: IdpSettings } | { type: 'oidc'; oidc: OidcSettings })

/** The owner sets the team's one connection up, or replaces it. */
export function saveConnection(ctx: Deps, req: Request, teamId: number, input: ConnectionInput): Promise<SsoConnection> {
  return User.sequelize!.transaction(async (transaction) => {
    const settings = input.type === 'oidc' ? input.oidc : input.idp
    const values = { type: input.type, settings: JSON.stringify(settings), defaultRole: input.defaultRole, requireSso: input.requireSso }
    const existing = await SsoConnection.findOne({ where: { teamId }, transaction, lock: transaction.LOCK.UPDATE })
    const row = existing ? await existing.update(values, { transaction }) : await SsoConnection.create({ teamId, ...values }, { transaction })
    await recordCredentialEvent(ctx, ssoEvents.connectionSaved, req.auth!.id, {
      req,
      meta: { teamId, type: input.type, ...(input.type === 'oidc' ? { issuer: input.oidc.issuer } : { idp: input.idp.entityId, allowIdpInitiated: input.idp.allowIdpInitiated === true }), requireSso: input.requireSso },
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
