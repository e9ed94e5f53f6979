import type { RequestHandler } from 'express'
import { z } from 'zod'
import { type AppContext, envOf, fieldError, validate } from '../../../kernel/index.js'
import { config } from '../config.js'
import { normalDomain } from '../services/domain-name.js'
import { claimDomain, verifyDomain } from '../services/domains.js'

export const domainSchema = z.object({
  domain: z
    .string()
    .max(253, 'sso.domainInvalid')
    .transform((value, context) => {
      const domain = normalDomain(value)
      if (domain === null) context.issues.push({ code: 'custom', message: 'sso.domainInvalid', input: value })
      return domain ?? z.NEVER
    }),
})

// Under /api/teams/:id/domains, behind the team's membership and `requireTeamRole('owner')`.

/** Behind step-up: `{domain}` → 201 with the TXT record to publish. */
export function storeDomain(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { domain } = validate(domainSchema, req.body)
    if (req.team!.personal) throw fieldError('domain', 'sso.personalTeam')
    res.status(201).json(await claimDomain(ctx, req, req.team!.id, domain))
  }
}

/** 200 `{verified: true}` once the TXT record is there; 422 on `domain` while it is not. */
export function checkDomain(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { domain } = validate(domainSchema, { domain: req.params.domain })
    await verifyDomain(ctx, req, req.team!.id, domain, envOf(config, ctx.env).SSO_DNS_SERVER)
    res.json({ verified: true })
  }
}
