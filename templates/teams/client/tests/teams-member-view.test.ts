import { enableAutoUnmount, type VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeTeamsApi, ownHeadings } from './support/fake-teams'
import { startServer, type TestServer } from './support/server'
import { mountApp, user } from './support/mount-app'

let server: TestServer
let api: ReturnType<typeof fakeTeamsApi>

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  server.on('GET', '/api/auth/me', { body: { user: user({ id: 1, name: 'Ann Owner', role: 'user' }) } })
})

const sent = (method: string, path: string) => server.received.filter((r) => r.method === method && r.path === path)
const buttons = (wrapper: VueWrapper) => wrapper.findAll('main button').map((b) => b.attributes('aria-label') ?? b.text())

async function openTeam() {
  const mounted = await mountApp(server, '/teams/2')
  await vi.waitFor(() => expect(mounted.wrapper.findAll('tbody tr')).toHaveLength(4))
  return mounted
}

describe('a team’s page, as a member', () => {
  beforeEach(() => {
    api = fakeTeamsApi(server, { role: 'member' })
  })

  it('shows the name and the members, with none of the admin actions', async () => {
    const { wrapper } = await openTeam()
    expect(wrapper.find('h1').text()).toBe('Acme')
    expect(wrapper.find('h1 + .badge').text()).toBe('Member')
    expect(ownHeadings(wrapper)).toEqual(['Members', 'Leave the team'])
    // Roles as words: no selects, no name form, no invite form, no row actions.
    expect(wrapper.findAll('main select.role-select')).toHaveLength(0)
    expect(wrapper.findAll('tbody .badge:not(.badge--soft)').map((b) => b.text())).toEqual(['Member', 'Admin', 'Member', 'Owner'])
    expect(wrapper.find('input[name=name]').exists()).toBe(false)
    expect(wrapper.find('form.team-invite').exists()).toBe(false)
    expect(wrapper.findAll('th').map((th) => th.text())).not.toContain('Actions')
    expect(buttons(wrapper).filter((name) => /Remove|Transfer|Revoke|Delete/.test(name))).toEqual([])
    // Nor does the page ask for what only owners and admins may see.
    expect(sent('GET', '/api/teams/2/invitations')).toHaveLength(0)
    expect(sent('GET', '/api/teams/2/activity')).toHaveLength(0)
  })

  it('leaves the team after a confirmation, then lands on the dashboard', async () => {
    const { wrapper, router } = await openTeam()
    await wrapper.findAll('button').find((b) => b.text() === 'Leave team')!.trigger('click')
    const dialog = wrapper.findAll<HTMLDialogElement>('dialog').find((d) => d.element.open)!
    expect(dialog.find('h2').text()).toBe('Leave “Acme”?')
    await dialog.findAll('button').find((b) => b.text() === 'Leave team')!.trigger('click')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/dashboard'))
    expect(sent('DELETE', '/api/teams/2/members/1')).toHaveLength(1)
    expect(api.team(2)!.members.map((m) => m.id)).not.toContain(1)
    expect(wrapper.find('.flash').text()).toContain('You left the team “Acme”.')
  })
})

describe('a team’s page, as an admin', () => {
  beforeEach(() => {
    api = fakeTeamsApi(server, { role: 'admin' })
  })

  it('manages members and invitations but never touches an owner, transfers or deletes', async () => {
    const { wrapper } = await openTeam()
    expect(ownHeadings(wrapper)).toEqual(['Team name', 'Members', 'Invitations', 'Activity', 'Leave the team'])
    const select = wrapper.find('select[aria-label="Role of Cy Member"]')
    expect(select.findAll('option').map((o) => o.text())).toEqual(['Admin', 'Member'])
    expect(wrapper.find('select[aria-label="Role of Olga Owner"]').exists()).toBe(false)
    expect(buttons(wrapper)).toContain('Remove Cy Member')
    expect(buttons(wrapper)).not.toContain('Remove Olga Owner')
    expect(buttons(wrapper).filter((name) => /Transfer|Delete team/.test(name))).toEqual([])
  })

  it('the last owner refuses to leave: the reason shows in the dialog', async () => {
    api = fakeTeamsApi(server, { role: 'owner', members: [{ id: 1, name: 'Ann Owner', email: 'ann@example.com', role: 'owner', joinedAt: '2026-01-01T00:00:00.000Z' }] })
    const { wrapper, router } = await mountApp(server, '/teams/2')
    await vi.waitFor(() => expect(wrapper.findAll('tbody tr')).toHaveLength(1))
    await wrapper.findAll('button').find((b) => b.text() === 'Leave team')!.trigger('click')
    const dialog = wrapper.findAll<HTMLDialogElement>('dialog').find((d) => d.element.open)!
    await dialog.findAll('button').find((b) => b.text() === 'Leave team')!.trigger('click')
    await vi.waitFor(() => expect(dialog.find('[role=alert]').text()).toBe('A team needs at least one owner: transfer ownership first.'))
    expect(router.currentRoute.value.path).toBe('/teams/2')
  })
})
