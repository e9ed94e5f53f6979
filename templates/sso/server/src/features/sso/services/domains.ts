import { randomBytes } from 'node:crypto'
import type { Request } from 'express'
import { Op, UniqueConstraintError } from 'sequelize'
import { type AppContext, fieldError, recordCredentialEvent, User } from '../../../kernel/index.js'
import { ssoEvents } from '../events.js'
import { SsoDomain } from '../models/sso-domain.js'
import { hasTxtRecord } from './dns-check.js'
import { txtName } from './domain-name.js'

type Deps = Pick<AppContext, 'queue' | 'authCache' | 'features' | 'webhooks'>

export interface DomainJson {
  domain: string
  verified: boolean
  txt_name: string
  txt_value: string
}

export const domainJson = (row: SsoDomain): DomainJson => ({
  domain: row.domain,
  verified: row.verifiedDomain !== null,
  txt_name: txtName(row.domain),
  txt_value: row.txtValue,
})

export const teamDomains = (teamId: number) => SsoDomain.findAll({ where: { teamId }, order: [['domain', 'ASC']] })

/** Whether another team has proved `domain` already: then it is theirs, and nobody else's claim can be. */
const takenElsewhere = async (teamId: number, domain: string) =>
  (await SsoDomain.count({ where: { verifiedDomain: domain, teamId: { [Op.ne]: teamId } } })) > 0

/**
 * The owner claims `domain` for the team: a fresh random value to publish at `_cookie-auth.<domain>`.
 * A domain another team has verified is refused; claims that are not proved yet do not block one
 * another (whoever publishes the record first wins it).
 */
export async function claimDomain(ctx: Deps, req: Request, teamId: number, domain: string): Promise<DomainJson> {
  if (await takenElsewhere(teamId, domain)) throw fieldError('domain', 'sso.domainTaken')
  return User.sequelize!.transaction(async (transaction) => {
    let row: SsoDomain
    try {
      row = await SsoDomain.create({ teamId, domain, txtValue: `cookie-auth-verify=${randomBytes(24).toString('base64url')}`, verifiedDomain: null, verifiedAt: null }, { transaction })
    } catch (error) {
      if (error instanceof UniqueConstraintError) throw fieldError('domain', 'sso.domainClaimed')
      throw error
    }
    await recordCredentialEvent(ctx, ssoEvents.domainAdded, req.auth!.id, { req, meta: { teamId, domain }, transaction })
    return domainJson(row)
  })
}

/**
 * Looks the team's TXT record up; found, the domain is the team's, unless another team proved it
 * first (the unique `verifiedDomain` decides a race). Asking again once verified answers the same.
 */
export async function verifyDomain(ctx: Deps, req: Request, teamId: number, domain: string, servers: readonly string[] | null): Promise<void> {
  const row = await SsoDomain.findOne({ where: { teamId, domain } })
  if (!row) throw fieldError('domain', 'sso.domainUnknown')
  if (row.verifiedDomain !== null) return
  if (await takenElsewhere(teamId, domain)) throw fieldError('domain', 'sso.domainTaken')
  if (!(await hasTxtRecord(txtName(domain), row.txtValue, servers))) throw fieldError('domain', 'sso.domainUnproved')
  await User.sequelize!.transaction(async (transaction) => {
    try {
      await row.update({ verifiedDomain: domain, verifiedAt: new Date() }, { transaction })
    } catch (error) {
      if (error instanceof UniqueConstraintError) throw fieldError('domain', 'sso.domainTaken')
      throw error
    }
    await recordCredentialEvent(ctx, ssoEvents.domainVerified, req.auth!.id, { req, meta: { teamId, domain }, transaction })
  })
}
