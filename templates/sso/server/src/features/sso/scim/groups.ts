import type { Request, RequestHandler, Response } from 'express'
import { type AppContext, User } from '../../../kernel/index.js'
import { TeamMember, type TeamRole } from '../../teams/public.js'
import { setScimRole } from './provisioning.js'
import { invalidValue, listResponse, mutability, SCIMMY, scimError, scimNotFound } from './protocol.js'
import { pageOf, queryOf, scimBase, teamOf } from './request.js'

/**
 * The team's groups are its roles: `admin` and `member` (an owner is made by a transfer in the
 * app, never by an IdP). Adding a member to a group gives them its role; taking one out of
 * `admin` makes them a member. Out of `member`, a member stays one: leaving the team is the
 * user's deactivation, not a group's business.
 */
const GROUPS: readonly TeamRole[] = ['admin', 'member']

type GroupSchema = InstanceType<typeof SCIMMY.Schemas.Group>
type Attributes = InstanceType<typeof SCIMMY.Resources.Group>['attributes']

async function groupResource(teamId: number, role: TeamRole) {
  const members = await TeamMember.findAll({ where: { teamId, role }, attributes: ['userId', 'updatedAt'], order: [['userId', 'ASC']] })
  const users = await User.findAll({ where: { id: members.map((member) => member.userId) }, attributes: ['id', 'email'] })
  const email = new Map(users.map((user) => [user.id, user.email]))
  return {
    id: role,
    displayName: role,
    members: members.map((member) => ({ value: String(member.userId), display: email.get(member.userId), type: 'User' })),
  }
}

const out = (ctx: AppContext, resource: Awaited<ReturnType<typeof groupResource>>, attributes?: Attributes) =>
  new SCIMMY.Schemas.Group(resource, 'out', `${scimBase(ctx)}/Groups`, attributes)

function roleOf(id: string): TeamRole {
  const role = GROUPS.find((group) => group === id)
  if (!role) throw scimNotFound(id)
  return role
}

const memberIds = (group: { members?: { value?: unknown }[] }) => new Set((group.members ?? []).map((member) => String(member.value)))

/** Makes the group's members those of `wanted`: who joined takes its role; who left `admin` becomes a member. */
async function applyMembers(ctx: AppContext, req: Request, res: Response, role: TeamRole, wanted: GroupSchema): Promise<void> {
  if (wanted.displayName !== undefined && String(wanted.displayName) !== role) throw mutability("A group is a team role: its name doesn't change")
  const before = memberIds(await groupResource(teamOf(res), role))
  const after = memberIds(wanted as { members?: { value?: unknown }[] })
  for (const id of after) {
    if (before.has(id)) continue
    if (!/^\d{1,15}$/.test(id)) throw invalidValue(`User ${id} is not an active member of the team`)
    await setScimRole(ctx, req, teamOf(res), Number(id), role)
  }
  if (role !== 'admin') return
  for (const id of before) if (!after.has(id)) await setScimRole(ctx, req, teamOf(res), Number(id), 'member')
}

function groupOf(body: unknown): GroupSchema {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidValue('The body must be a Group resource')
  try {
    return new SCIMMY.Schemas.Group(body as Record<string, unknown>, 'in')
  } catch (error) {
    if (error instanceof TypeError) throw invalidValue(error.message)
    throw error
  }
}

export function listGroups(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const query = new SCIMMY.Resources.Group(undefined, queryOf(req))
    const { startIndex, count } = pageOf(query.constraints)
    const all = await Promise.all(GROUPS.map((role) => groupResource(teamOf(res), role)))
    const kept = query.filter ? query.filter.match(all) : all
    res.json(listResponse(kept.slice(startIndex - 1, startIndex - 1 + count).map((group) => out(ctx, group, query.attributes)), kept.length, startIndex))
  }
}

export function showGroup(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const query = new SCIMMY.Resources.Group(String(req.params.id), queryOf(req))
    res.json(out(ctx, await groupResource(teamOf(res), roleOf(String(req.params.id))), query.attributes))
  }
}

/** POST: the groups are there already, and there are no others. */
export function createGroup(): RequestHandler {
  return async (req) => {
    const group = groupOf(req.body)
    if (GROUPS.includes(String(group.displayName).toLowerCase() as TeamRole)) throw scimError(409, `The group ${String(group.displayName)} exists: its id is ${String(group.displayName).toLowerCase()}`, 'uniqueness')
    throw invalidValue(`The groups are the team's roles: ${GROUPS.join(', ')}`)
  }
}

export function replaceGroup(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const role = roleOf(String(req.params.id))
    await applyMembers(ctx, req, res, role, groupOf(req.body))
    res.json(out(ctx, await groupResource(teamOf(res), role)))
  }
}

/** PATCH: SCIMMY applies Okta's and Entra ID's member operations to the group as it is; the difference is what changes. */
export function patchGroup(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const role = roleOf(String(req.params.id))
    const current = out(ctx, await groupResource(teamOf(res), role))
    const message = new SCIMMY.Messages.PatchOp(req.body as ConstructorParameters<typeof SCIMMY.Messages.PatchOp>[0])
    try {
      await message.apply(current, async (patched) => {
        await applyMembers(ctx, req, res, role, patched)
        return groupResource(teamOf(res), role)
      })
    } catch (error) {
      if (error instanceof TypeError) throw invalidValue(error.message)
      throw error
    }
    res.json(out(ctx, await groupResource(teamOf(res), role)))
  }
}

export function deleteGroup(): RequestHandler {
  return async (req) => {
    roleOf(String(req.params.id))
    throw mutability("A group is a team role: it can't be deleted")
  }
}
