import { flushPromises, mount } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import { h } from 'vue'
import type { Router } from 'vue-router'
import DataTable from '@/components/DataTable.vue'
import type { Paginated } from '@/types'
import { useLiveServer } from './support/app'
import { paginate, people } from './support/paginate'

// Sorting, filters, states and select-all-matching: what the table has beyond paging and search.
let router: Router
useLiveServer('/people', (live) => ({ router } = live))

const columns = [{ key: 'id' }, { key: 'name', sortable: true }, { key: 'email', label: 'E-mail', sortable: true }]

function mountTable(props: Record<string, unknown> = {}, slots: Record<string, any> = {}) {
  return mount(DataTable, {
    props: { data: paginate(), columns, ...props } as any,
    slots,
    global: { plugins: [router] },
    attachTo: document.body,
  })
}

const query = () => router.currentRoute.value.query
const settle = async () => {
  await flushPromises()
  await new Promise((r) => setTimeout(r, 20))
}
const header = (table: ReturnType<typeof mountTable>, text: string) => table.findAll('thead th').find((th) => th.text().startsWith(text))!
const empty = (over: Partial<Paginated> = {}): Paginated => ({ data: [], current_page: 1, last_page: 1, per_page: 10, total: 0, path: '/api/people', ...over })

describe('DataTable: sorting', () => {
  it('a sortable column has a real button inside its <th>; the others plain text', () => {
    const table = mountTable()
    expect(header(table, 'Name').find('button[type=button]').text()).toContain('Name')
    expect(header(table, 'E-mail').find('button').exists()).toBe(true)
    expect(header(table, 'Id').find('button').exists()).toBe(false)
  })

  it('a click cycles ascending, descending and none, each one route update back at page 1', async () => {
    await router.push('/people?page=3&size=5&search=ann')
    const push = vi.spyOn(router, 'push')
    const table = mountTable({ data: paginate(3, 5), search: 'ann' })
    await header(table, 'Name').find('button').trigger('click')
    await settle()
    expect(query()).toEqual({ page: '1', size: '5', search: 'ann', sort: 'name' })
    await table.setProps({ sort: 'name' })
    await header(table, 'Name').find('button').trigger('click')
    await settle()
    expect(query()).toEqual({ page: '1', size: '5', search: 'ann', sort: '-name' })
    await table.setProps({ sort: '-name' })
    await header(table, 'Name').find('button').trigger('click')
    await settle()
    expect(query()).toEqual({ page: '1', size: '5', search: 'ann' })
    expect(push).toHaveBeenCalledTimes(3)
  })

  it('aria-sort sits on the sorted header only, following the sort prop', async () => {
    const table = mountTable({ sort: 'name' })
    expect(header(table, 'Name').attributes('aria-sort')).toBe('ascending')
    expect(header(table, 'E-mail').attributes('aria-sort')).toBeUndefined()
    await table.setProps({ sort: '-email' })
    expect(header(table, 'E-mail').attributes('aria-sort')).toBe('descending')
    expect(header(table, 'Name').attributes('aria-sort')).toBeUndefined()
  })

  it('another column replaces the sort, and page changes keep it', async () => {
    const table = mountTable({ sort: '-name' })
    await header(table, 'E-mail').find('button').trigger('click')
    await settle()
    expect(query().sort).toBe('email')
    await table.setProps({ sort: 'email' })
    await table.find('[aria-label="Page 2"]').trigger('click')
    await settle()
    expect(query()).toEqual({ page: '2', size: '10', search: '', sort: 'email' })
  })
})

describe('DataTable: the filters slot', () => {
  const roleSelect = ({ filter, set }: any) =>
    h('select', { 'aria-label': 'Role', value: filter.role ?? '', onChange: (e: Event) => set('role', (e.target as HTMLSelectElement).value) }, [
      h('option', { value: '' }, 'All'),
      h('option', { value: 'admin' }, 'Admins'),
      h('option', { value: 'user' }, 'Users'),
    ])

  it('gets the current filter; set(key, value) writes filter[key] at page 1, in one route update', async () => {
    await router.push('/people?page=4&size=10&search=')
    const push = vi.spyOn(router, 'push')
    const table = mountTable({ data: paginate(4, 10), filter: { verified: 'true' }, sort: 'name' }, { filters: roleSelect })
    await table.find('select[aria-label=Role]').setValue('admin')
    await settle()
    expect(query()).toEqual({ page: '1', size: '10', search: '', sort: 'name', 'filter[role]': 'admin', 'filter[verified]': 'true' })
    expect(push).toHaveBeenCalledOnce()
  })

  it('an empty value drops the key', async () => {
    const table = mountTable({ filter: { role: 'admin' } }, { filters: roleSelect })
    expect(table.find<HTMLSelectElement>('select[aria-label=Role]').element.value).toBe('admin')
    await table.find('select[aria-label=Role]').setValue('')
    await settle()
    expect(query()).toEqual({ page: '1', size: '10', search: '' })
  })
})

describe('DataTable: one route update per action (vuetify #21555)', () => {
  it('a search on page 3 is a single push, straight to page 1', async () => {
    await router.push('/people?page=3&size=10&search=')
    const push = vi.spyOn(router, 'push')
    const table = mountTable({ data: paginate(3, 10), debounce: 0 })
    await table.find('input[type=search]').setValue('person')
    await settle()
    expect(push).toHaveBeenCalledOnce()
    expect(query()).toEqual({ page: '1', size: '10', search: 'person' })
  })
})

describe('DataTable: the search box', () => {
  it('is never overwritten while it has focus; leaving it searches for what it shows', async () => {
    const table = mountTable({ search: 'ann', debounce: 10_000 })
    const input = table.find<HTMLInputElement>('input[type=search]')
    input.element.focus()
    input.element.value = 'anne'
    await input.trigger('input')
    // The route changes meanwhile (back, say): the typed text stays.
    await table.setProps({ search: 'bob' })
    expect(input.element.value).toBe('anne')
    await input.trigger('blur')
    await settle()
    expect(query()).toEqual({ page: '1', size: '10', search: 'anne' })
  })

  it('left without typing, it shows the route’s search again', async () => {
    const table = mountTable({ search: 'ann' })
    const input = table.find<HTMLInputElement>('input[type=search]')
    input.element.focus()
    await table.setProps({ search: 'bob' })
    expect(input.element.value).toBe('ann')
    await input.trigger('blur')
    expect(input.element.value).toBe('bob')
    expect(query()).toEqual({})
  })
})

describe('DataTable: loading and empty states', () => {
  it('loading keeps the rows, under an overlay, and marks the table busy', async () => {
    const table = mountTable({ loading: true })
    expect(table.findAll('tbody tr')).toHaveLength(10)
    expect(table.find('.dt__overlay').text()).toBe('Loading…')
    expect(table.find('table').attributes('aria-busy')).toBe('true')
    expect(table.find('.dt__info').text()).toBe('Showing 1–10 of 57')
    await table.setProps({ loading: false })
    expect(table.find('.dt__overlay').exists()).toBe(false)
  })

  it('"no records" when nothing exists at all', () => {
    const table = mountTable({ data: empty() })
    expect(table.find('.dt__empty').text()).toBe('No records yet.')
    expect(table.find('.dt__info').text()).toBe('No records')
  })

  it('"no matches" under a search or a filter, with a way back to everything', async () => {
    await router.push('/people?page=1&size=10&search=nobody&filter[role]=admin')
    const table = mountTable({ data: empty(), search: 'nobody', filter: { role: 'admin' } })
    expect(table.find('.dt__empty').text()).toContain('No matches.')
    expect(table.find('.dt__info').text()).toBe('No matches')
    await table.find('.dt__empty button').trigger('click')
    await settle()
    expect(query()).toEqual({ page: '1', size: '10', search: '' })
    expect(table.find<HTMLInputElement>('input[type=search]').element.value).toBe('')
    expect(mountTable({ data: empty(), filter: { role: 'user' } }).find('.dt__empty').text()).toContain('No matches.')
  })

  it('the empty slot is told which of the two it is', () => {
    const slot = { empty: ({ filtered }: { filtered: boolean }) => (filtered ? 'none match' : 'none yet') }
    expect(mountTable({ data: empty() }, slot).find('.dt__empty').text()).toBe('none yet')
    expect(mountTable({ data: empty(), search: 'x' }, slot).find('.dt__empty').text()).toBe('none match')
  })

  it('an aria-live summary says which rows show: "Showing 11–20 of 23"', () => {
    const info = mountTable({ data: paginate(2, 10, '', people.slice(0, 23)) }).find('.dt__info')
    expect(info.attributes('aria-live')).toBe('polite')
    expect(info.text()).toBe('Showing 11–20 of 23')
  })

  it('the header rows sit in their own scroller (scroll-region), where they stick', () => {
    const table = mountTable()
    expect(table.find('.dt__scroll').attributes()).toHaveProperty('scroll-region')
    expect(table.find('.dt__scroll thead th').exists()).toBe(true)
  })
})

describe('DataTable: rowKey and the toolbar and actions slots', () => {
  it('rowKey names the id field that selection and remove use', async () => {
    const rows = people.slice(0, 3).map(({ id, name }) => ({ uid: `u${id}`, name }))
    const table = mountTable({ data: { ...paginate(), data: rows, total: 3, last_page: 1 }, rowKey: 'uid', columns: [{ key: 'name' }] })
    await table.findAll('tbody input')[1]!.setValue(true)
    await table.find('button.dt__remove').trigger('click')
    expect(table.emitted('remove')).toEqual([[['u2']]])
  })

  it('toolbar goes beside the search, actions get a column of their own with each row', () => {
    const table = mountTable({}, { toolbar: () => h('button', { class: 'add' }, 'Add'), actions: ({ row }: any) => h('a', { href: `/people/${row.id}` }, 'Open') })
    expect(table.find('.dt__bar button.add').exists()).toBe(true)
    expect(table.findAll('thead th').at(-1)!.text()).toBe('Actions')
    expect(table.find('tbody tr td:last-child a').attributes('href')).toBe('/people/1')
  })
})

describe('DataTable: select all matching', () => {
  const selectPage = (table: ReturnType<typeof mountTable>) => table.find('thead input').setValue(true)

  it('a whole selected page offers all N matching; remove-matching then carries {search, filter, except}', async () => {
    const table = mountTable({ search: 'person', filter: { role: 'user', verified: '' } })
    expect(table.find('.dt__matching').exists()).toBe(false)
    await selectPage(table)
    expect(table.find('.dt__matching').text()).toContain('All 10 on this page are selected.')
    await table.find('.dt__matching button').trigger('click')
    expect(table.find('.dt__matching').text()).toContain('All 57 matching are selected.')
    expect(table.find('button.dt__remove').text()).toBe('Delete (57)')
    await table.findAll('tbody input')[2]!.setValue(false)
    expect(table.find('button.dt__remove').text()).toBe('Delete (56)')
    await table.find('button.dt__remove').trigger('click')
    expect(table.emitted('remove-matching')).toEqual([[{ search: 'person', filter: { role: 'user' }, except: [3] }]])
    expect(table.emitted('remove')).toBeUndefined()
  })

  it('rows of other pages count as selected', async () => {
    const table = mountTable()
    await selectPage(table)
    await table.find('.dt__matching button').trigger('click')
    await table.setProps({ data: paginate(4, 10) })
    expect(table.findAll<HTMLInputElement>('tbody input').every((box) => box.element.checked)).toBe(true)
    expect(table.find<HTMLInputElement>('thead input').element.checked).toBe(true)
  })

  it('is left when the search or a filter changes: other rows match then', async () => {
    const table = mountTable()
    await selectPage(table)
    await table.find('.dt__matching button').trigger('click')
    await table.setProps({ search: 'person 1' })
    expect(table.find('.dt__matching').exists()).toBe(false)
    expect(table.find('button.dt__remove').attributes('disabled')).toBeDefined()
  })

  it('is kept across a sort, and cleared on request', async () => {
    const table = mountTable()
    await selectPage(table)
    await table.find('.dt__matching button').trigger('click')
    await table.setProps({ sort: 'name' })
    expect(table.find('button.dt__remove').text()).toBe('Delete (57)')
    await table.find('.dt__matching button').trigger('click')
    expect(table.find('button.dt__remove').text()).toBe('Delete')
  })

  it('is not offered when the page already holds every match', async () => {
    const table = mountTable({ data: paginate(1, 10, '', people.slice(0, 4)) })
    await selectPage(table)
    expect(table.find('.dt__matching').exists()).toBe(false)
  })
})

describe('DataTable: after a delete', () => {
  it('an emptied last page moves to the new last one, replacing the history entry', async () => {
    await router.push('/people?page=6&size=10&search=&sort=name')
    const replace = vi.spyOn(router, 'replace')
    const table = mountTable({ data: paginate(6, 10), sort: 'name' })
    await table.setProps({ data: empty({ current_page: 6, last_page: 5, total: 50 }) })
    await settle()
    expect(replace).toHaveBeenCalledOnce()
    expect(query()).toEqual({ page: '5', size: '10', search: '', sort: 'name' })
  })

  it('with nothing left, back to page 1', async () => {
    await router.push('/people?page=3&size=10&search=x')
    const table = mountTable({ data: paginate(3, 10), search: 'x' })
    await table.setProps({ data: empty({ current_page: 3 }) })
    await settle()
    expect(query()).toEqual({ page: '1', size: '10', search: 'x' })
  })

  it('an empty first page stays', async () => {
    const replace = vi.spyOn(router, 'replace')
    mountTable({ data: empty() })
    await settle()
    expect(replace).not.toHaveBeenCalled()
  })
})
