import type { AppContext } from '../../../kernel/index.js'
import { TeamMember } from '../../teams/public.js'
import { SsoConnection } from '../models/sso-connection.js'
import { SsoDomain } from '../models/sso-domain.js'
import { domainOfEmail } from './domain-name.js'

/** The factor an SSO sign-in gives its session: `sso:<teamId>`. */
export const ssoFactor = (teamId: number) => `sso:${teamId}`

/**
 * The layer's `signInRefusal`: an address of a domain whose team requires its SSO signs in only
 * through it, by no password, passkey or provider, but for the team's owners, who keep their way
 * in for when the IdP breaks.
 */
export async function requireSso(_ctx: AppContext, identity: { id: number; email: string }, factor: string): Promise<string | undefined> {
  if (factor.startsWith('sso:')) return undefined
  const domain = domainOfEmail(identity.email)
  if (!domain) return undefined
  const claimed = await SsoDomain.findOne({ where: { verifiedDomain: domain }, attributes: ['teamId'] })
  if (!claimed) return undefined
  const required = await SsoConnection.count({ where: { teamId: claimed.teamId, requireSso: true } })
  if (required === 0) return undefined
  const owner = await TeamMember.count({ where: { teamId: claimed.teamId, userId: identity.id, role: 'owner' } })
  return owner > 0 ? undefined : 'sso.required'
}
