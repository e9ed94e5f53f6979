import { enableAutoUnmount, type DOMWrapper, type VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeStepUp } from './support/confirm-its-you'
import { fakeTeamsApi, ownHeadings } from './support/fake-teams'
import { startServer, type TestServer } from './support/server'
import { mountApp, user } from './support/mount-app'

let server: TestServer
let api: ReturnType<typeof fakeTeamsApi>
let stepUp: ReturnType<typeof fakeStepUp>

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  server.on('GET', '/api/auth/me', { body: { user: user({ id: 1, name: 'Ann Owner', role: 'user' }) } })
  stepUp = fakeStepUp(server)
  api = fakeTeamsApi(server, { guard: stepUp.guard })
})

const sent = (method: string, path: string) => server.received.filter((r) => r.method === method && r.path === path)
const names = (wrapper: VueWrapper) => wrapper.findAll('tbody tr').map((tr) => tr.find('td:not(.dt__num):not(.dt__check)').text().replace(/you$/, ''))
const button = (within: VueWrapper | DOMWrapper<Element>, name: string) =>
  within.findAll('button').find((b) => (b.attributes('aria-label') ?? b.text()) === name)
/** The teams layer's own sections: what other layers add to the page (`.team-page__more`) aside. */
const openDialog = (wrapper: VueWrapper) => wrapper.findAll<HTMLDialogElement>('dialog').find((d) => d.element.open && d.find('h2').text() !== 'Confirm it’s you')
const confirmDialog = (wrapper: VueWrapper) => wrapper.findAll<HTMLDialogElement>('dialog').find((d) => d.element.open && d.find('h2').text() === 'Confirm it’s you')

async function openTeam(path = '/teams/2') {
  const mounted = await mountApp(server, path)
  await vi.waitFor(() => expect(mounted.wrapper.findAll('tbody tr')).toHaveLength(3))
  return mounted
}

/** Types the password into base's "Confirm it's you" dialog. */
async function confirmItsYou(wrapper: VueWrapper) {
  await vi.waitFor(() => expect(confirmDialog(wrapper)).toBeDefined())
  const dialog = confirmDialog(wrapper)!
  await dialog.find('input[name=password]').setValue('secret-password')
  await dialog.find('form').trigger('submit')
}

describe('a team’s page, as its owner', () => {
  it('shows the team, its members in the table (from the API’s paginated list) and the owner’s sections', async () => {
    const { wrapper } = await openTeam()
    expect(document.title.startsWith('Team')).toBe(true)
    expect(wrapper.find('h1').text()).toBe('Acme')
    expect(wrapper.find('h1 + .badge').text()).toBe('Owner')
    expect(names(wrapper)).toEqual(['Ann Owner', 'Bob Admin', 'Cy Member'])
    expect(sent('GET', '/api/teams/2/members').map((r) => r.url)).toEqual(['/api/teams/2/members?page=1&size=10&search='])
    expect(ownHeadings(wrapper)).toEqual(['Team name', 'Members', 'Invitations', 'Activity', 'Leave or delete the team'])
    // The owner's own row: no role select, no remove; the others': both, and a transfer.
    expect(wrapper.find('select[aria-label="Role of Ann Owner"]').exists()).toBe(false)
    expect(button(wrapper, 'Remove Ann Owner')).toBeUndefined()
    expect(button(wrapper, 'Remove Bob Admin')).toBeDefined()
    expect(button(wrapper, 'Transfer ownership to Cy Member')).toBeDefined()
  })

  it('searches and sorts the members through the route query', async () => {
    const { wrapper, router } = await openTeam()
    await wrapper.find('th button').trigger('click')
    await vi.waitFor(() => expect(router.currentRoute.value.query.sort).toBe('name'))
    await vi.waitFor(() => expect(sent('GET', '/api/teams/2/members').at(-1)!.query).toMatchObject({ sort: 'name', page: '1' }))
    const search = wrapper.find('input[type=search]')
    await search.setValue('bob')
    await search.trigger('keydown', { key: 'Enter' })
    await search.trigger('blur')
    await vi.waitFor(() => expect(names(wrapper)).toEqual(['Bob Admin']))
    expect(router.currentRoute.value.path).toBe('/teams/2')
  })

  it('renames the team', async () => {
    const { wrapper } = await openTeam()
    const field = wrapper.find('input[name=name]')
    await field.setValue('Acme Corp')
    await field.element.closest('form')!.dispatchEvent(new Event('submit'))
    await vi.waitFor(() => expect(wrapper.find('h1').text()).toBe('Acme Corp'))
    expect(sent('PATCH', '/api/teams/2').map((r) => r.json)).toEqual([{ name: 'Acme Corp' }])
    await vi.waitFor(() => expect(wrapper.find('.team-switcher__toggle').text()).toContain('Acme Corp'))
  })

  it('shows a refused name under the field', async () => {
    const { wrapper } = await openTeam()
    const field = wrapper.find('input[name=name]')
    await field.setValue(' ')
    await field.element.closest('form')!.dispatchEvent(new Event('submit'))
    await vi.waitFor(() => expect(wrapper.text()).toContain('The name field is required.'))
    expect(field.attributes('aria-invalid')).toBe('true')
  })

  it('changes a member’s role in place', async () => {
    const { wrapper } = await openTeam()
    const select = wrapper.find<HTMLSelectElement>('select[aria-label="Role of Cy Member"]')
    expect(select.findAll('option').map((o) => o.element.value)).toEqual(['owner', 'admin', 'member'])
    await select.setValue('admin')
    await vi.waitFor(() => expect(wrapper.find('.flash').text()).toContain('Cy Member is now an admin.'))
    expect(sent('PATCH', '/api/teams/2/members/3').map((r) => r.json)).toEqual([{ role: 'admin' }])
    expect(api.team(2)!.members.find((m) => m.id === 3)!.role).toBe('admin')
    expect(sent('GET', '/api/teams/2/members')).toHaveLength(1)
  })

  it('making a member an owner goes through the step-up dialog, then is sent again', async () => {
    const { wrapper } = await openTeam()
    await wrapper.find<HTMLSelectElement>('select[aria-label="Role of Cy Member"]').setValue('owner')
    await confirmItsYou(wrapper)
    await vi.waitFor(() => expect(api.team(2)!.members.find((m) => m.id === 3)!.role).toBe('owner'))
    expect(sent('PATCH', '/api/teams/2/members/3').map((r) => r.json)).toEqual([{ role: 'owner' }, { role: 'owner' }])
    expect(stepUp.confirmed).toBe(true)
  })

  it('a refused role change puts the select back and says why', async () => {
    server.on('PATCH', '/api/teams/2/members/2', { status: 422, body: { message: 'Invalid.', errors: { role: ['A team needs at least one owner.'] } } })
    const { wrapper } = await openTeam()
    const select = wrapper.find<HTMLSelectElement>('select[aria-label="Role of Bob Admin"]')
    await select.setValue('member')
    await vi.waitFor(() => expect(wrapper.find('.flash').text()).toContain('A team needs at least one owner.'))
    expect(select.element.value).toBe('admin')
  })

  it('removes a member after a confirmation, then loads the list again', async () => {
    const { wrapper } = await openTeam()
    await button(wrapper, 'Remove Bob Admin')!.trigger('click')
    const dialog = openDialog(wrapper)!
    expect(dialog.find('h2').text()).toBe('Remove Bob Admin?')
    expect(sent('DELETE', '/api/teams/2/members/2')).toHaveLength(0)
    await button(dialog, 'Remove')!.trigger('click')
    await vi.waitFor(() => expect(names(wrapper)).toEqual(['Ann Owner', 'Cy Member']))
    expect(sent('DELETE', '/api/teams/2/members/2')).toHaveLength(1)
    expect(wrapper.find('.flash').text()).toContain('Bob Admin was removed from the team.')
  })

  it('lists the pending invitations, invites with a role and revokes', async () => {
    const { wrapper } = await openTeam()
    const pending = () => wrapper.findAll('[aria-labelledby="pending-heading"] li strong').map((s) => s.text())
    await vi.waitFor(() => expect(pending()).toEqual(['dana@example.com']))
    expect(wrapper.find('[aria-labelledby="pending-heading"] li').text()).toContain('Invited by you')

    const form = wrapper.find('form.team-invite')
    await form.find('input[name=email]').setValue('eve@example.com')
    await form.find('select[name=role]').setValue('admin')
    await form.trigger('submit')
    await vi.waitFor(() => expect(pending()).toEqual(['dana@example.com', 'eve@example.com']))
    expect(sent('POST', '/api/teams/2/invitations').map((r) => r.json)).toEqual([{ email: 'eve@example.com', role: 'admin' }])
    expect(wrapper.find('[role=status]').text()).toBe('The invitation is on its way.')
    expect(form.find<HTMLInputElement>('input[name=email]').element.value).toBe('')

    await button(wrapper, 'Revoke the invitation to dana@example.com')!.trigger('click')
    await vi.waitFor(() => expect(pending()).toEqual(['eve@example.com']))
    expect(sent('DELETE', '/api/teams/2/invitations/7')).toHaveLength(1)
  })

  it('shows an invalid address under the field, and a throttled invitation as an alert', async () => {
    const { wrapper } = await openTeam()
    const form = wrapper.find('form.team-invite')
    await form.find('input[name=email]').setValue('not-an-address')
    await form.trigger('submit')
    await vi.waitFor(() => expect(form.find('input[name=email]').attributes('aria-invalid')).toBe('true'))
    expect(form.text()).toContain('The email must be a valid email address.')

    server.on('POST', '/api/teams/2/invitations', { status: 429, headers: { 'retry-after': '3600' }, body: { message: 'Too many invitations. Try again later.' } })
    await form.find('input[name=email]').setValue('eve@example.com')
    await form.trigger('submit')
    await vi.waitFor(() => expect(wrapper.find('[role=alert].alert').text()).toBe('Too many invitations. Try again later.'))
  })

  it('shows the team’s activity', async () => {
    const { wrapper } = await openTeam()
    await vi.waitFor(() => expect(wrapper.find('[aria-labelledby="activity-heading"] li').exists()).toBe(true))
    expect(wrapper.find('[aria-labelledby="activity-heading"] li').text()).toContain('Team created')
    expect(sent('GET', '/api/teams/2/activity')[0]!.query).toEqual({ page: '1', size: '10' })
  })

  it('transfers ownership behind the step-up dialog; the page then shows the owner as an admin', async () => {
    const { wrapper } = await openTeam()
    await button(wrapper, 'Transfer ownership to Cy Member')!.trigger('click')
    await button(openDialog(wrapper)!, 'Transfer ownership')!.trigger('click')
    await confirmItsYou(wrapper)
    await vi.waitFor(() => expect(wrapper.find('h1 + .badge').text()).toBe('Admin'))
    // Refused until confirmed, then sent again as it was.
    expect(sent('POST', '/api/teams/2/transfer').map((r) => r.json)).toEqual([{ user_id: 3 }, { user_id: 3 }])
    expect(stepUp.confirmed).toBe(true)
    await vi.waitFor(() => expect(wrapper.find('select[aria-label="Role of Cy Member"]').exists()).toBe(false))
    // An admin no longer transfers, deletes, or touches the owner.
    expect(button(wrapper, 'Transfer ownership to Bob Admin')).toBeUndefined()
    expect(button(wrapper, 'Remove Cy Member')).toBeUndefined()
    expect(button(wrapper, 'Delete team')).toBeUndefined()
  })

  it('deletes the team behind a confirmation and the step-up dialog, then goes to the dashboard', async () => {
    const { wrapper, router } = await openTeam()
    await button(wrapper, 'Delete team')!.trigger('click')
    const dialog = openDialog(wrapper)!
    expect(dialog.find('h2').text()).toBe('Delete “Acme”?')
    await button(dialog, 'Delete team')!.trigger('click')
    await confirmItsYou(wrapper)
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/dashboard'))
    expect(api.team(2)).toBeUndefined()
    expect(wrapper.find('.flash').text()).toContain('The team “Acme” was deleted.')
    await vi.waitFor(() => expect(wrapper.find('.team-switcher__toggle').text()).toContain('Ann’s Team'))
  })

  it('the personal team: no invitations, no leaving, no deleting', async () => {
    const { wrapper } = await mountApp(server, '/teams/1')
    await vi.waitFor(() => expect(wrapper.find('h1').text()).toBe('Ann’s Team'))
    await vi.waitFor(() => expect(wrapper.findAll('tbody tr')).toHaveLength(1))
    expect(wrapper.text()).toContain('Personal team')
    expect(ownHeadings(wrapper)).toEqual(['Team name', 'Members', 'Activity'])
  })

  it('shows a team the user is not in as one that does not exist: the API answers both 404', async () => {
    server.on('GET', '/api/teams/99', { status: 404, body: { message: 'Not Found.' } })
    api.removeMe(2)
    for (const id of [99, 2]) {
      const { wrapper } = await mountApp(server, `/teams/${id}`)
      await vi.waitFor(() => expect(wrapper.find('h1').text()).toBe('Team not found'))
      expect(wrapper.find('table').exists()).toBe(false)
      wrapper.unmount()
    }
  })

  it('removed from the team meanwhile: the next action shows the page as for a stranger', async () => {
    const { wrapper } = await openTeam()
    api.removeMe(2)
    await wrapper.find<HTMLSelectElement>('select[aria-label="Role of Cy Member"]').setValue('admin')
    await vi.waitFor(() => expect(wrapper.find('h1').text()).toBe('Team not found'))
  })
})
