import type { Request, RequestHandler, Response } from 'express'
import { type AppContext, normaliseEmail } from '../../../kernel/index.js'
import { patchMessageOf, resourceBodyOf } from './entra.js'
import { scimMember, scimMembers, scimMembersByEmail, scimMembersByExternalId, scimUserIds, type ScimMember, userResource } from './members.js'
import { deprovision, provision, updateUser, type UserInput } from './provisioning.js'
import { invalidValue, listResponse, SCIMMY, scimNotFound } from './protocol.js'
import { pageOf, queryOf, scimBase, teamOf } from './request.js'

type UserQuery = InstanceType<typeof SCIMMY.Resources.User>
type Attributes = UserQuery['attributes']

const out = (ctx: AppContext, member: ScimMember, attributes?: Attributes) => new SCIMMY.Schemas.User(userResource(member), 'out', `${scimBase(ctx)}/Users`, attributes)

/** The body as SCIMMY's User schema reads it: a wrong type is the client's 400, never a 500. */
function userOf(body: unknown): InstanceType<typeof SCIMMY.Schemas.User> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidValue('The body must be a User resource')
  try {
    return new SCIMMY.Schemas.User(resourceBodyOf(body) as Record<string, unknown>, 'in')
  } catch (error) {
    if (error instanceof TypeError) throw invalidValue(error.message)
    throw error
  }
}

/** What the IdP says, from a resource; the name it changed wins over the one it kept (`current`). */
function inputOf(user: Record<string, unknown>, current?: ScimMember): UserInput {
  const name = (user.name ?? {}) as { formatted?: string; givenName?: string; familyName?: string }
  const parts = [name.givenName, name.familyName].filter(Boolean).join(' ')
  const names = [user.displayName as string | undefined, parts || undefined, name.formatted]
  return {
    userName: typeof user.userName === 'string' ? user.userName : '',
    externalId: typeof user.externalId === 'string' && user.externalId ? user.externalId.slice(0, 255) : null,
    name: names.find((candidate) => candidate && candidate !== current?.name) ?? current?.name,
    active: user.active !== false,
  }
}

/** The one `eq` a filter may be answered from the database with: on userName, externalId or id. */
function simpleEq(filter: UserQuery['filter']): { attribute: string; value: string } | null {
  if (!filter || filter.length !== 1) return null
  const entries = Object.entries(filter[0] as Record<string, unknown>)
  if (entries.length !== 1) return null
  const [attribute, test] = entries[0]!
  if (!Array.isArray(test) || test.length !== 2 || String(test[0]).toLowerCase() !== 'eq' || typeof test[1] !== 'string') return null
  const name = attribute.toLowerCase()
  return ['username', 'externalid', 'id'].includes(name) ? { attribute: name, value: test[1] } : null
}

async function matching(teamId: number, query: UserQuery): Promise<ScimMember[] | null> {
  const eq = simpleEq(query.filter)
  if (!eq) return null
  // userName is not case-exact (RFC 7643 §4.1.1): the address is compared as the app keeps it, lower case.
  if (eq.attribute === 'username') return scimMembersByEmail(teamId, normaliseEmail(eq.value) ?? '')
  if (eq.attribute === 'externalid') return scimMembersByExternalId(teamId, eq.value)
  const one = await scimMember(teamId, eq.value)
  return one ? [one] : []
}

/** GET /Users: a page of the team's users, filtered; `userName eq` and `externalId eq` by index, any other filter over the team's users. */
export function listUsers(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const teamId = teamOf(res)
    const query = new SCIMMY.Resources.User(undefined, queryOf(req))
    const { startIndex, count } = pageOf(query.constraints)
    let total: number
    let members: ScimMember[]
    const found = await matching(teamId, query)
    if (found) {
      total = found.length
      members = found.slice(startIndex - 1, startIndex - 1 + count)
    } else if (!query.filter) {
      const ids = await scimUserIds(teamId)
      total = ids.length
      members = await scimMembers(teamId, ids.slice(startIndex - 1, startIndex - 1 + count))
    } else {
      const everyone = await scimMembers(teamId, await scimUserIds(teamId))
      const kept = new Set(query.filter.match(everyone.map(userResource)).map((resource) => resource.id))
      const all = everyone.filter((member) => kept.has(String(member.userId)))
      total = all.length
      members = all.slice(startIndex - 1, startIndex - 1 + count)
    }
    res.json(listResponse(members.map((member) => out(ctx, member, query.attributes)), total, startIndex))
  }
}

async function memberOr404(res: Response, id: string): Promise<ScimMember> {
  const member = await scimMember(teamOf(res), id)
  if (!member) throw scimNotFound(id)
  return member
}

const id = (req: Request) => String(req.params.id)

export function showUser(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const query = new SCIMMY.Resources.User(id(req), queryOf(req))
    res.json(out(ctx, await memberOr404(res, id(req)), query.attributes))
  }
}

export function createUser(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const user = userOf(req.body)
    const member = await provision(ctx, req, teamOf(res), inputOf(user as unknown as Record<string, unknown>))
    const resource = out(ctx, member)
    res.status(201).location(`${scimBase(ctx)}/Users/${member.userId}`).json(resource)
  }
}

export function replaceUser(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const member = await memberOr404(res, id(req))
    const user = userOf(req.body)
    await updateUser(ctx, req, teamOf(res), member, inputOf(user as unknown as Record<string, unknown>, member))
    res.json(out(ctx, await memberOr404(res, id(req))))
  }
}

/** PATCH: SCIMMY applies the operations to the user as it is; the result is saved as a PUT would be. */
export function patchUser(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const member = await memberOr404(res, id(req))
    const message = new SCIMMY.Messages.PatchOp(patchMessageOf(req.body) as ConstructorParameters<typeof SCIMMY.Messages.PatchOp>[0])
    try {
      await message.apply(out(ctx, member), async (patched) => {
        await updateUser(ctx, req, teamOf(res), member, inputOf(patched as unknown as Record<string, unknown>, member))
        return userResource((await scimMember(teamOf(res), id(req))) ?? member)
      })
    } catch (error) {
      if (error instanceof TypeError) throw invalidValue(error.message)
      throw error
    }
    res.json(out(ctx, await memberOr404(res, id(req))))
  }
}

/** DELETE: gone from the team and from its SCIM (404 afterwards); an account the team made is suspended. */
export function deleteUser(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const member = await memberOr404(res, id(req))
    await deprovision(ctx, req, teamOf(res), member.userId, true)
    res.status(204).end()
  }
}

