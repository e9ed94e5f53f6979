import type { Team, TeamActivity, TeamInvitation, TeamMember, TeamRole, TeamSummary } from '@/features/teams/lib/teams'
import type { Paginated } from '@/types'
import type { VueWrapper } from '@vue/test-utils'
import type { Received, Reply, TestServer } from './server'

interface FakeTeam {
  id: number
  name: string
  personal: boolean
  members: TeamMember[]
  invitations: TeamInvitation[]
  activity: TeamActivity[]
}

const notFound: Reply = { status: 404, body: { message: 'Not Found.' } }
const forbidden: Reply = { status: 403, body: { message: 'Forbidden.' } }
const invalid = (field: string, message: string): Reply => ({ status: 422, body: { message, errors: { [field]: [message] } } })
const day = (n: number) => new Date(Date.UTC(2026, 0, n)).toISOString()

export const person = (id: number, name: string, role: TeamRole): TeamMember => ({
  id,
  name,
  email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
  role,
  joinedAt: day(id),
})

/** The users list's shape over `rows`, with `?page&size&search&sort` as the API reads them. */
function paginate(rows: TeamMember[], query: Record<string, string>, path: string): Paginated<TeamMember> {
  const page = Number(query.page ?? 1)
  const size = Number(query.size ?? 10)
  const search = (query.search ?? '').toLowerCase()
  const found = rows.filter((row) => !search || `${row.name} ${row.email}`.toLowerCase().includes(search))
  const sort = query.sort ?? ''
  if (sort) {
    const key = sort.replace(/^-/, '') as keyof TeamMember
    found.sort((a, b) => String(a[key]).localeCompare(String(b[key])) * (sort.startsWith('-') ? -1 : 1))
  }
  return {
    data: found.slice((page - 1) * size, page * size),
    current_page: page,
    last_page: Math.max(1, Math.ceil(found.length / size)),
    per_page: size,
    total: found.length,
    path,
  }
}

/**
 * The Teams API on the test server, for the signed-in user `me` (id 1): a personal
 * team (id 1) and a shared one (id 2) holding `members`, where `me` has `role`. The API's own
 * rules that the pages show (404 for other teams, 403 for a role that may not, the last owner)
 * are kept; `guard` wraps the step-up routes (DELETE team, transfer, a role change that makes an
 * owner or touches one).
 */
export function fakeTeamsApi(server: TestServer, options: { role?: TeamRole; members?: TeamMember[]; guard?: (answer: (req: Received) => Reply) => (req: Received) => Reply } = {}) {
  const role = options.role ?? 'owner'
  const guard = options.guard ?? ((answer) => answer)
  const me = person(1, 'Ann Owner', role)
  const teams: FakeTeam[] = [
    { id: 1, name: 'Ann’s Team', personal: true, members: [{ ...me, role: 'owner' }], invitations: [], activity: [] },
    {
      id: 2,
      name: 'Acme',
      personal: false,
      members: options.members ?? [me, person(2, 'Bob Admin', 'admin'), person(3, 'Cy Member', 'member'), ...(role === 'owner' ? [] : [person(4, 'Olga Owner', 'owner')])],
      invitations: [{ id: 7, email: 'dana@example.com', role: 'member', invitedBy: { id: 1, name: 'Ann Owner' }, expiresAt: day(20) }],
      activity: [{ id: 1, type: 'team_created', device: 'Chrome on Linux', ip: '127.0.0.1', createdAt: new Date().toISOString(), current: true }],
    },
  ]
  let current = 2
  let nextId = 3

  const roleIn = (team: FakeTeam) => team.members.find((member) => member.id === me.id)?.role
  const teamJson = (team: FakeTeam): Team => ({ id: team.id, name: team.name, personal: team.personal, role: roleIn(team)! })
  const manages = (team: FakeTeam) => ['owner', 'admin'].includes(roleIn(team) ?? '')
  const owners = (team: FakeTeam) => team.members.filter((member) => member.role === 'owner').length

  /** A route of one team: 404 unless `me` is a member, 403 unless `may` allows. */
  function teamRoute(team: FakeTeam, may: (team: FakeTeam) => boolean, answer: (req: Received) => Reply) {
    return (req: Received) => (!roleIn(team) || !teams.includes(team) ? notFound : may(team) ? answer(req) : forbidden)
  }

  function routeMember(team: FakeTeam, member: TeamMember) {
    const base = `/api/teams/${team.id}/members/${member.id}`
    const change = (next: TeamRole): Reply => {
      if (member.role === 'owner' && next !== 'owner' && owners(team) === 1) return invalid('role', 'A team needs at least one owner.')
      member.role = next
      return { body: { member } }
    }
    const ownerChange = guard((req) => change(req.json.role))
    server.on('PATCH', base, teamRoute(team, manages, (req) => {
      const next = req.json?.role as TeamRole
      if (!['owner', 'admin', 'member'].includes(next)) return invalid('role', 'The selected role is invalid.')
      if (roleIn(team) === 'admin' && (member.role === 'owner' || next === 'owner')) return forbidden
      if (member.role === next) return { body: { member } }
      return member.role === 'owner' || next === 'owner' ? ownerChange(req) : change(next)
    }))
    server.on('DELETE', base, teamRoute(team, (t) => member.id === me.id || manages(t), () => {
      if (member.role === 'owner' && owners(team) === 1) return invalid('user', 'A team needs at least one owner: transfer ownership first.')
      team.members = team.members.filter((m) => m !== member)
      return { status: 204 }
    }))
  }

  function routeInvitation(team: FakeTeam, invitation: TeamInvitation) {
    server.on('DELETE', `/api/teams/${team.id}/invitations/${invitation.id}`, teamRoute(team, manages, () => {
      team.invitations = team.invitations.filter((i) => i !== invitation)
      return { status: 204 }
    }))
  }

  function routeTeam(team: FakeTeam) {
    const base = `/api/teams/${team.id}`
    server.on('GET', base, teamRoute(team, () => true, () => ({ body: { team: teamJson(team) } })))
    server.on('PATCH', base, teamRoute(team, manages, (req) => {
      if (!req.json?.name?.trim()) return invalid('name', 'The name field is required.')
      team.name = req.json.name.trim()
      return { body: { team: teamJson(team) } }
    }))
    server.on('DELETE', base, teamRoute(team, (t) => roleIn(t) === 'owner', guard(() => {
      if (team.personal) return invalid('team', 'A personal team cannot be deleted.')
      teams.splice(teams.indexOf(team), 1)
      if (current === team.id) current = 1
      return { status: 204 }
    })))
    server.on('GET', `${base}/members`, teamRoute(team, () => true, (req) => ({ body: { data: paginate(team.members, req.query, `${base}/members`) } })))
    server.on('GET', `${base}/invitations`, teamRoute(team, manages, () => ({ body: { data: team.invitations } })))
    server.on('POST', `${base}/invitations`, teamRoute(team, manages, (req) => {
      const email = String(req.json?.email ?? '').trim()
      if (!email.includes('@')) return invalid('email', 'The email must be a valid email address.')
      const invitation: TeamInvitation = { id: nextId++, email, role: req.json.role, invitedBy: me.id, expiresAt: day(27) }
      team.invitations = [...team.invitations.filter((i) => i.email !== email), invitation]
      routeInvitation(team, invitation)
      return { status: 202, body: { message: 'The invitation is on its way.' } }
    }))
    server.on('GET', `${base}/activity`, teamRoute(team, manages, (req) => {
      const size = Number(req.query.size ?? 10)
      const page = Number(req.query.page ?? 1)
      return { body: { data: { data: team.activity.slice((page - 1) * size, page * size), current_page: page, last_page: Math.max(1, Math.ceil(team.activity.length / size)), per_page: size, total: team.activity.length, path: `${base}/activity` } } }
    }))
    server.on('POST', `${base}/transfer`, teamRoute(team, (t) => roleIn(t) === 'owner', guard((req) => {
      const to = team.members.find((member) => member.id === req.json?.user_id)
      if (!to || to.id === me.id) return invalid('user_id', 'The selected user is invalid.')
      to.role = 'owner'
      team.members.find((member) => member.id === me.id)!.role = 'admin'
      return { body: { team: teamJson(team) } }
    })))
    for (const member of team.members) routeMember(team, member)
    for (const invitation of team.invitations) routeInvitation(team, invitation)
  }

  server.on('GET', '/api/teams', () => ({
    body: { data: teams.filter(roleIn).map((team): TeamSummary => ({ ...teamJson(team), current: team.id === current })) },
  }))
  server.on('PUT', '/api/teams/current', (req) => {
    const team = teams.find((t) => t.id === req.json?.team_id && roleIn(t))
    if (!team) return invalid('team_id', 'The selected team is invalid.')
    current = team.id
    return { body: { team: teamJson(team) } }
  })
  server.on('POST', '/api/teams', (req) => {
    const name = String(req.json?.name ?? '').trim()
    if (!name) return invalid('name', 'The name field is required.')
    const team: FakeTeam = { id: nextId++, name, personal: false, members: [{ ...me, role: 'owner' }], invitations: [], activity: [] }
    teams.push(team)
    routeTeam(team)
    current = team.id
    return { status: 201, body: { team: teamJson(team) } }
  })
  teams.forEach(routeTeam)

  return {
    teams,
    team: (id: number) => teams.find((team) => team.id === id),
    get current() {
      return current
    },
    /** Someone else removed the user from a team. */
    removeMe(id: number) {
      const team = teams.find((t) => t.id === id)!
      team.members = team.members.filter((member) => member.id !== me.id)
    },
  }
}

/** The team page's own headings: not those of the sections other layers add (`team-section.vue`). */
export const ownHeadings = (wrapper: VueWrapper) => wrapper.findAll('h2').filter((h) => !h.element.closest('.team-page__more')).map((h) => h.text())
