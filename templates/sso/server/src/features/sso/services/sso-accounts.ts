import { randomBytes } from 'node:crypto'
import type { Profile } from '@node-saml/node-saml'
import type { Request } from 'express'
import { UniqueConstraintError } from 'sequelize'
import { type AppContext, createAccount, findUserById, hashPassword, identityOf, normaliseEmail, serializeUser, type SignInUser, tidyName, User } from '../../../kernel/index.js'
import { addTeamMember, type TeamRole } from '../../teams/public.js'
import { SsoDomain } from '../models/sso-domain.js'
import { markMadeByTeam } from './team-accounts.js'
import { domainOfEmail } from './domain-name.js'

const EMAIL_ATTRIBUTES = ['email', 'mail', 'urn:oid:0.9.2342.19200300.100.1.3', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress']
const NAME_ATTRIBUTES = ['displayName', 'name', 'urn:oid:2.16.840.1.113730.3.1.241', 'http://schemas.microsoft.com/identity/claims/displayname']
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'

const text = (value: unknown) => (typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined)

/** The address the IdP vouches for: an e-mail attribute (Entra ID, Okta, Google name theirs differently), else an e-mail NameID. */
export function emailOf(profile: Profile): string | null {
  const stated = EMAIL_ATTRIBUTES.map((name) => text(profile[name])).find(Boolean) ?? (profile.nameIDFormat === EMAIL_FORMAT ? profile.nameID : undefined)
  return stated ? normaliseEmail(stated) : null
}

function nameOf(profile: Profile, email: string): string {
  const stated = NAME_ATTRIBUTES.map((name) => text(profile[name])).find(Boolean)
  return tidyName(stated ?? '') || tidyName(email.split('@')[0]!) || email
}

export type SsoOutcome = { user: SignInUser; created: boolean } | { refused: string }

async function signInUser(userId: number): Promise<SignInUser | undefined> {
  const user = await findUserById(userId)
  if (!user) return undefined
  const json = serializeUser(user)
  return { passwordHash: user.password, json, identity: identityOf(json) }
}

/**
 * Who the team's IdP signs in: only an address of a domain this team has verified (an IdP speaks
 * for its own organisation's addresses, never another's), then the account with that address, or
 * a new one made just now, verified, with a password nobody knows. Either way the person is a member of
 * the team afterwards, a new one with the connection's default role; an existing membership keeps
 * its role.
 */
export function ssoAccount(ctx: AppContext, teamId: number, defaultRole: string, profile: Profile): Promise<SsoOutcome> {
  const email = emailOf(profile)
  return ssoPerson(ctx, teamId, defaultRole, email, email ? nameOf(profile, email) : '')
}

/** `ssoAccount` for whoever the IdP vouches for, by SAML or OpenID: its address (null when it gave none) and a name. */
export async function ssoPerson(ctx: AppContext, teamId: number, defaultRole: string, email: string | null, name: string): Promise<SsoOutcome> {
  if (!email || email.length > 255) return { refused: 'no e-mail address in the answer' }
  if (!(await teamVerified(teamId, email))) return { refused: `an address of a domain the team has not verified (${domainOfEmail(email)})` }
  const { userId, created } = await teamAccount(ctx, { via: 'sso' }, teamId, defaultRole, email, name)
  const user = await signInUser(userId)
  return user ? { user, created } : { refused: 'the account went meanwhile' }
}

/** Whether `email` is of a domain `teamId` has verified: the only addresses its IdP may speak for. */
export async function teamVerified(teamId: number, email: string): Promise<boolean> {
  const domain = domainOfEmail(email)
  return domain !== null && (await SsoDomain.count({ where: { teamId, verifiedDomain: domain } })) > 0
}

/**
 * The account with `email` (an address the caller checked with `teamVerified`), or one made now,
 * verified, with a password nobody knows, recorded as the team's making (sso_team_accounts), so
 * that the team's IdP may later suspend it; either way a member of the team afterwards, a new one
 * with `defaultRole` (the teams' own addition: its lock, event and webhook), an existing membership
 * keeping its role. The SAML and OpenID sign-ins and SCIM share it (`by` names which).
 */
export async function teamAccount(ctx: AppContext, by: { via: 'sso' | 'scim'; req?: Request }, teamId: number, defaultRole: string, email: string, name: string): Promise<{ userId: number; created: boolean }> {
  let created = false
  let existing = await User.findOne({ where: { email }, attributes: ['id'] })
  if (!existing) {
    try {
      // A password nobody knows: the column stays required in apps without social sign-in (whose
      // migration makes it optional), and a reset link still gives the person one of their own.
      const passwordHash = await hashPassword(randomBytes(32).toString('base64url'))
      // The team's mark and the membership commit with the account or not at all: an account the
      // team made but never marked would be one its IdP could not suspend.
      existing = await createAccount(ctx, { name: tidyName(name) || tidyName(email.split('@')[0]!) || email, email, passwordHash, role: 'user', verified: true }, async (user, transaction) => {
        await markMadeByTeam(teamId, user.id, transaction)
        await addTeamMember(ctx, teamId, user.id, defaultRole as TeamRole, { ...by, transaction })
      })
      created = true
    } catch (error) {
      // Registered meanwhile, by a form or a parallel sign-in: that account it is.
      if (!(error instanceof UniqueConstraintError)) throw error
      existing = await User.findOne({ where: { email }, attributes: ['id'] })
      if (!existing) throw error
    }
  }
  if (!created) await addTeamMember(ctx, teamId, existing.id, defaultRole as TeamRole, by)
  return { userId: existing.id, created }
}
