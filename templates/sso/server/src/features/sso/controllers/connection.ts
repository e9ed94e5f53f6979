import type { RequestHandler } from 'express'
import { z } from 'zod'
import { type AppContext, fieldError, validate } from '../../../kernel/index.js'
import { connectionJson, deleteConnection, saveConnection } from '../services/connections.js'
import { parseIdpMetadata } from '../services/idp-metadata.js'
import { discover, issuerAllowed, sealSecret } from '../services/oidc-client.js'

/** The most an IdP's metadata takes: a handful of certificates and endpoints, never a federation's. */
const METADATA_MAX = 100_000

const common = {
  // An owner is made by a transfer, never by a sign-in.
  default_role: z.enum(['member', 'admin'], 'sso.defaultRole').default('member'),
  require_sso: z.boolean().default(false),
}

const samlConnection = z.object({
  type: z.literal('saml'),
  idp_metadata_xml: z
    .string()
    .max(METADATA_MAX, 'sso.metadataInvalid')
    .transform((xml, context) => {
      const idp = parseIdpMetadata(xml)
      if (!idp) context.issues.push({ code: 'custom', message: 'sso.metadataInvalid', input: xml })
      return idp ?? z.NEVER
    }),
  // Sign-ins started at the IdP's portal: no request of the app's to answer, so they are off unless asked for.
  allow_idp_initiated: z.boolean().default(false),
  ...common,
})

const oidcConnection = z.object({
  type: z.literal('oidc'),
  issuer: z.string('sso.issuerInvalid').trim().min(1, 'sso.issuerInvalid').max(500, 'sso.issuerInvalid'),
  client_id: z.string('sso.clientIdRequired').trim().min(1, 'sso.clientIdRequired').max(255, 'sso.clientIdRequired'),
  client_secret: z.string('sso.clientSecretRequired').min(1, 'sso.clientSecretRequired').max(1000, 'sso.clientSecretRequired'),
  ...common,
})

export const connectionSchema = z.discriminatedUnion('type', [samlConnection, oidcConnection], { error: 'sso.typeUnsupported' })

// Under /api/teams/:id/sso, behind the team's membership, `requireTeamRole('owner')` and step-up.

/**
 * `PUT`: the team's connection, replacing any it had: from a SAML IdP's metadata, or an OpenID
 * provider found by discovery now (a provider that cannot be discovered is 422 on `issuer`, so a
 * typo shows when it is made, not at the first sign-in). Its client secret is kept sealed.
 */
export function putConnection(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const input = validate(connectionSchema, req.body)
    const common = { defaultRole: input.default_role, requireSso: input.require_sso }
    if (input.type === 'saml') {
      const idp = { ...input.idp_metadata_xml, allowIdpInitiated: input.allow_idp_initiated }
      const row = await saveConnection(ctx, req, req.team!.id, { type: 'saml', idp, ...common })
      return void res.json({ connection: connectionJson(row) })
    }
    if (!issuerAllowed(ctx, input.issuer)) throw fieldError('issuer', 'sso.issuerInvalid')
    try {
      await discover(ctx, input.issuer, input.client_id, input.client_secret)
    } catch (error) {
      ctx.logger.warn({ teamId: req.team!.id, issuer: input.issuer, error: String(error) }, 'sso: OpenID discovery failed')
      throw fieldError('issuer', 'sso.issuerUnreachable')
    }
    const oidc = { issuer: input.issuer, clientId: input.client_id, sealedSecret: sealSecret(ctx, input.client_secret) }
    const row = await saveConnection(ctx, req, req.team!.id, { type: 'oidc', oidc, ...common })
    res.json({ connection: connectionJson(row) })
  }
}

/** `DELETE`: 204, whether the team had one or not. */
export function destroyConnection(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    await deleteConnection(ctx, req, req.team!.id)
    res.status(204).end()
  }
}
