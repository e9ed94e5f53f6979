import { generateServiceProviderMetadata } from '@node-saml/node-saml'
import type { RequestHandler } from 'express'
import { type AppContext, idField, notFound } from '../../../kernel/index.js'
import { serviceProvider } from '../services/service-provider.js'

/**
 * `GET /api/auth/sso/saml/:teamId/metadata`: the SP metadata an owner gives the IdP, before the
 * connection exists. It states only the team's URLs, so it is answered for any id.
 */
export function samlMetadata(ctx: AppContext): RequestHandler {
  return (req, res) => {
    const teamId = idField.safeParse(req.params.teamId)
    if (!teamId.success) throw notFound()
    const sp = serviceProvider(ctx.env.BASE_URL, teamId.data)
    const xml = generateServiceProviderMetadata({
      issuer: sp.entity_id,
      callbackUrl: sp.acs_url,
      identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      wantAssertionsSigned: true,
    })
    res.type('application/samlmetadata+xml').send(xml)
  }
}
