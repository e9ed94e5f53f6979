import type { RequestHandler } from 'express'
import { z } from 'zod'
import { type AppContext, validate } from '../../../kernel/index.js'
import { connectionJson, deleteConnection, saveConnection } from '../services/connections.js'
import { parseIdpMetadata } from '../services/idp-metadata.js'

/** The most an IdP's metadata takes: a handful of certificates and endpoints, never a federation's. */
const METADATA_MAX = 100_000

export const connectionSchema = z.object({
  type: z.literal('saml', 'sso.typeUnsupported'),
  idp_metadata_xml: z
    .string()
    .max(METADATA_MAX, 'sso.metadataInvalid')
    .transform((xml, context) => {
      const idp = parseIdpMetadata(xml)
      if (!idp) context.issues.push({ code: 'custom', message: 'sso.metadataInvalid', input: xml })
      return idp ?? z.NEVER
    }),
  // An owner is made by a transfer, never by a sign-in.
  default_role: z.enum(['member', 'admin'], 'sso.defaultRole').default('member'),
  require_sso: z.boolean().default(false),
})

// Under /api/teams/:id/sso, behind the team's membership, `requireTeamRole('owner')` and step-up.

/** `PUT`: the team's connection from the IdP's metadata, replacing any it had. */
export function putConnection(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const input = validate(connectionSchema, req.body)
    const row = await saveConnection(ctx, req, req.team!.id, { idp: input.idp_metadata_xml, defaultRole: input.default_role, requireSso: input.require_sso })
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
