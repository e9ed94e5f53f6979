import { flushPromises, mount } from '@vue/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { h } from 'vue'
import type { Router } from 'vue-router'
import DataTable from '@/components/DataTable.vue'
import type { TestServer } from './support/server'
import { useLiveServer } from './support/app'
import { paginate } from './support/paginate'

let server: TestServer
let router: Router
useLiveServer('/people', (live) => ({ server, router } = live))
afterEach(() => vi.useRealTimers())

function mountTable(props: Record<string, unknown> = {}, slots: Record<string, any> = {}) {
  return mount(DataTable, {
    props: { data: paginate(), ...props } as any,
    slots,
    global: { plugins: [router] },
    attachTo: document.body,
  })
}

const query = () => router.currentRoute.value.query
const settle = async () => {
  await flushPromises()
  await vi.waitFor(() => expect(router.currentRoute.value).toBeTruthy())
  await new Promise((r) => setTimeout(r, 20))
}

describe('DataTable: rendering', () => {
  it('renders one row per item, with columns from the row keys', () => {
    const table = mountTable()
    expect(table.findAll('tbody tr')).toHaveLength(10)
    const heads = table.findAll('thead th').map((th) => th.text())
    expect(heads).toEqual(['', '#', 'Id', 'Name', 'Email'])
    expect(table.find('tbody tr').text()).toContain('person1@example.com')
  })

  it('takes columns with labels and a slot per cell', () => {
    const table = mountTable(
      { columns: [{ key: 'name' }, { key: 'email', label: 'E-mail' }] },
      { 'cell-email': ({ value, row }: any) => h('a', { href: `mailto:${value}` }, `${row.name} <${value}>`) },
    )
    expect(table.findAll('thead th').map((th) => th.text())).toEqual(['', '#', 'Name', 'E-mail'])
    expect(table.find('tbody a').attributes('href')).toBe('mailto:person1@example.com')
  })

  it('numbers rows continuously across pages', () => {
    const table = mountTable({ data: paginate(3, 10) })
    const numbers = table.findAll('tbody td.dt__num').map((td) => td.text())
    expect(numbers[0]).toBe('21')
    expect(numbers.at(-1)).toBe('30')
    expect(table.text()).toContain('Showing 21–30 of 57')
  })

  it('countable: false drops the number column', () => {
    const table = mountTable({ countable: false })
    expect(table.find('td.dt__num').exists()).toBe(false)
    expect(table.findAll('thead th').map((th) => th.text())).not.toContain('#')
  })

  it('removable (default true) shows checkboxes and the delete button; false hides both', () => {
    const table = mountTable()
    expect(table.findAll('tbody input[type=checkbox]')).toHaveLength(10)
    expect(table.find('button.dt__remove').exists()).toBe(true)
    const plain = mountTable({ removable: false })
    expect(plain.find('input[type=checkbox]').exists()).toBe(false)
    expect(plain.find('button.dt__remove').exists()).toBe(false)
  })

  it('searchable (default true) shows the search input with the search prop; false hides it', () => {
    expect(mountTable().find<HTMLInputElement>('input[type=search]').element.value).toBe('')
    expect(mountTable({ search: 'ann' }).find<HTMLInputElement>('input[type=search]').element.value).toBe('ann')
    expect(mountTable({ searchable: false }).find('input[type=search]').exists()).toBe(false)
  })

  it('optionable (default true) shows the size selector with the option choices; false hides it', () => {
    const table = mountTable({ option: [5, 10, 25] })
    expect(table.findAll('select option').map((o) => o.text())).toEqual(['5', '10', '25'])
    expect(table.find<HTMLSelectElement>('select').element.value).toBe('10')
    expect(mountTable({ optionable: false }).find('select').exists()).toBe(false)
  })

  it('option takes numbers or numeric strings, listed exactly as given', async () => {
    const table = mountTable({ option: ['5', '25', '50'] })
    expect(table.findAll('select option').map((o) => o.text())).toEqual(['5', '25', '50'])
    await table.find('select').setValue('25')
    await settle()
    expect(query()).toEqual({ page: '1', size: '25', search: '' })
  })

  it('option defaults to no choices of its own: common sizes plus the current one', () => {
    const table = mountTable({ data: paginate(1, 7) })
    expect(table.findAll('select option').map((o) => o.text())).toEqual(['7', '10', '25', '50', '100'])
  })

  it('shows an empty state, replaceable through a slot', () => {
    const empty = paginate(1, 10, 'nobody')
    expect(mountTable({ data: empty, search: 'nobody' }).find('.dt__empty').text()).toContain('No matches.')
    expect(mountTable({ data: empty }, { empty: () => 'Nothing here' }).find('.dt__empty').text()).toBe('Nothing here')
  })

  it('shows a loading state', () => {
    const table = mountTable({ loading: true })
    expect(table.find('table').attributes('aria-busy')).toBe('true')
    expect(table.find('.dt__overlay').text()).toBe('Loading…')
  })

  it('labels its controls for assistive technology', () => {
    const table = mountTable()
    const search = table.find('input[type=search]')
    expect(table.find(`label[for="${search.attributes('id')}"]`).text()).toBe('Search')
    expect(table.find('thead input').attributes('aria-label')).toBe('Select all rows on this page')
    expect(table.find('tbody input').attributes('aria-label')).toBe('Select row 1')
    expect(table.find('.dt__size').text()).toContain('Rows per page')
    expect(table.find('nav').attributes('aria-label')).toBe('Pagination')
    expect(table.find('[aria-current=page]').text()).toBe('1')
  })

  it('windows the page buttons: the ends and the neighbours of the current page', () => {
    const table = mountTable({ data: paginate(5, 5) })
    const labels = table.findAll('.dt__pages > *').map((el) => el.text())
    expect(labels).toEqual(['‹', '1', '…', '4', '5', '6', '…', '12', '›'])
  })
})

describe('DataTable: selection and remove', () => {
  it('emits remove with the selected ids', async () => {
    const table = mountTable()
    const boxes = table.findAll('tbody input[type=checkbox]')
    expect(table.find('button.dt__remove').attributes('disabled')).toBeDefined()
    await boxes[1]!.setValue(true)
    await boxes[3]!.setValue(true)
    await table.find('button.dt__remove').trigger('click')
    expect(table.emitted('remove')).toEqual([[[2, 4]]])
    expect(table.find('button.dt__remove').text()).toBe('Delete (2)')
  })

  it('select-all takes every row of the current page, then none', async () => {
    const table = mountTable({ data: paginate(2, 10) })
    await table.find('thead input').setValue(true)
    await table.find('button.dt__remove').trigger('click')
    expect(table.emitted('remove')![0]).toEqual([[11, 12, 13, 14, 15, 16, 17, 18, 19, 20]])
    await table.find('thead input').setValue(false)
    expect(table.findAll('tbody input:checked' as string)).toHaveLength(0)
  })

  it('the select-all box is indeterminate while only some rows are selected', async () => {
    const table = mountTable()
    const all = table.find<HTMLInputElement>('thead input')
    await table.findAll('tbody input')[0]!.setValue(true)
    expect(all.element.indeterminate).toBe(true)
    expect(all.element.checked).toBe(false)
    await all.setValue(true)
    expect(all.element.indeterminate).toBe(false)
    expect(all.element.checked).toBe(true)
  })

  it('keeps the selection while paging (preserveState), for the next remove', async () => {
    const table = mountTable()
    await table.findAll('tbody input')[0]!.setValue(true)
    await table.find('[aria-label="Next page"]').trigger('click')
    await settle()
    await table.setProps({ data: paginate(2, 10) })
    await table.findAll('tbody input')[0]!.setValue(true)
    await table.find('button.dt__remove').trigger('click')
    expect(table.emitted('remove')).toEqual([[[1, 11]]])
  })

  it('emits string ids as they are', async () => {
    const rows = [
      { id: 'a-1', name: 'Ann' },
      { id: 'b-2', name: 'Bob' },
      { id: 'c-3', name: 'Cy' },
    ]
    const table = mountTable({ data: { ...paginate(), data: rows, total: 3, last_page: 1 } })
    const boxes = table.findAll('tbody input[type=checkbox]')
    await boxes[0]!.setValue(true)
    await boxes[2]!.setValue(true)
    await table.find('button.dt__remove').trigger('click')
    expect(table.emitted('remove')).toEqual([[['a-1', 'c-3']]])
  })

  it('a new table starts with nothing selected', async () => {
    const first = mountTable()
    await first.findAll('tbody input')[0]!.setValue(true)
    first.unmount()
    const second = mountTable()
    await second.findAll('tbody input')[1]!.setValue(true)
    await second.find('button.dt__remove').trigger('click')
    expect(second.emitted('remove')).toEqual([[[2]]])
  })

  it('with a rememberKey the selection outlives the table', async () => {
    const first = mountTable({ rememberKey: 'people-selection' })
    await first.findAll('tbody input')[0]!.setValue(true)
    first.unmount()
    const second = mountTable({ rememberKey: 'people-selection' })
    expect(second.find('button.dt__remove').text()).toBe('Delete (1)')
  })

  it('clearSelection() empties it', async () => {
    const table = mountTable()
    await table.findAll('tbody input')[0]!.setValue(true)
    ;(table.vm as any).clearSelection()
    await flushPromises()
    expect(table.find('button.dt__remove').text()).toBe('Delete')
  })
})

describe('DataTable: query rules', () => {
  it('search resets the page to 1 and keeps the size', async () => {
    await router.push('/people?page=3&size=5')
    const table = mountTable({ data: paginate(3, 5), debounce: 0 })
    await table.find('input[type=search]').setValue('person 1')
    await settle()
    expect(query()).toEqual({ page: '1', size: '5', search: 'person 1' })
  })

  it('search is debounced: one visit once typing pauses', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const push = vi.spyOn(router, 'push')
    const table = mountTable()
    const input = table.find<HTMLInputElement>('input[type=search]')
    // Typing: an input event per key, no change event until the text is committed.
    for (const text of ['a', 'an', 'ann']) {
      input.element.value = text
      await input.trigger('input')
      vi.advanceTimersByTime(100)
    }
    expect(push).not.toHaveBeenCalled()
    vi.advanceTimersByTime(300)
    vi.useRealTimers()
    await settle()
    expect(push).toHaveBeenCalledOnce()
    expect(query()).toEqual({ page: '1', size: '10', search: 'ann' })
  })

  it('Enter searches at once', async () => {
    const table = mountTable({ debounce: 10_000 })
    const input = table.find<HTMLInputElement>('input[type=search]')
    input.element.value = 'x'
    await input.trigger('input')
    await table.find('form').trigger('submit')
    await settle()
    expect(query()).toEqual({ page: '1', size: '10', search: 'x' })
  })

  it.each(['keydown', 'keyup'])('Enter as a %s on the input searches at once', async (type) => {
    const table = mountTable({ debounce: 10_000 })
    const input = table.find<HTMLInputElement>('input[type=search]')
    input.element.value = 'y'
    await input.trigger('input')
    await input.trigger(type, { key: 'Enter' })
    await settle()
    expect(query()).toEqual({ page: '1', size: '10', search: 'y' })
  })

  it('committing the text (a change event, as setValue sends) searches without waiting', async () => {
    const table = mountTable({ debounce: 10_000 })
    await table.find('input[type=search]').setValue('person 2')
    await settle()
    expect(query()).toEqual({ page: '1', size: '10', search: 'person 2' })
  })

  it('a page change keeps the current search and size', async () => {
    await router.push('/people?page=1&size=5&search=person')
    const table = mountTable({ data: paginate(1, 5, 'person'), search: 'person' })
    await table.find('[aria-label="Page 2"]').trigger('click')
    await settle()
    expect(query()).toEqual({ page: '2', size: '5', search: 'person' })
    await table.setProps({ data: paginate(2, 5, 'person') })
    await table.find('[aria-label="Next page"]').trigger('click')
    await settle()
    expect(query()).toEqual({ page: '3', size: '5', search: 'person' })
    await table.setProps({ data: paginate(3, 5, 'person') })
    await table.find('[aria-label="Previous page"]').trigger('click')
    await settle()
    expect(query()).toEqual({ page: '2', size: '5', search: 'person' })
  })

  it('a page change keeps a search typed into the table', async () => {
    const table = mountTable({ debounce: 0 })
    await table.find('input[type=search]').setValue('person')
    await settle()
    await table.setProps({ data: paginate(1, 10, 'person') })
    await table.find('[aria-label="Page 2"]').trigger('click')
    await settle()
    expect(query()).toEqual({ page: '2', size: '10', search: 'person' })
  })

  it('previous and next are disabled at the ends', () => {
    expect(mountTable().find('[aria-label="Previous page"]').attributes('disabled')).toBeDefined()
    expect(mountTable({ data: paginate(6, 10) }).find('[aria-label="Next page"]').attributes('disabled')).toBeDefined()
  })

  it('a larger page size keeps the search and resets the page to 1', async () => {
    const table = mountTable({ data: paginate(3, 10, 'person'), search: 'person', option: [10, 25, 50] })
    await table.find('select').setValue('25')
    await settle()
    expect(query()).toEqual({ page: '1', size: '25', search: 'person' })
  })

  it('a smaller page size keeps the search and the page, which stays valid', async () => {
    const table = mountTable({ data: paginate(3, 25), search: 'p', option: [10, 25, 50] })
    await table.find('select').setValue('10')
    await settle()
    expect(query()).toEqual({ page: '3', size: '10', search: 'p' })
  })

  it('every action is a GET visit to the route only: skipFetch, no request', async () => {
    const table = mountTable({ debounce: 0 })
    await table.find('[aria-label="Page 2"]').trigger('click')
    await table.find('select').setValue('25')
    await table.find('input[type=search]').setValue('x')
    await settle()
    expect(server.received).toHaveLength(0)
  })

  it('visits the current route path, whatever the API path', async () => {
    await router.push('/other')
    const table = mountTable({ data: paginate(1, 10, '', undefined, '/api/elsewhere') })
    await table.find('[aria-label="Page 2"]').trigger('click')
    await settle()
    expect(router.currentRoute.value.fullPath).toBe('/other?page=2&size=10&search=')
  })

  it('preserves the scroll position', async () => {
    const table = mountTable()
    window.scrollTo(0, 640)
    await table.find('[aria-label="Page 2"]').trigger('click')
    await settle()
    expect(window.scrollY).toBe(640)
  })

  it('pushes history entries, so back returns to the previous query', async () => {
    const table = mountTable()
    await table.find('[aria-label="Page 2"]').trigger('click')
    await settle()
    router.back()
    await settle()
    expect(router.currentRoute.value.fullPath).toBe('/people')
  })

  it('follows the search prop when the route changes under it (back, forward)', async () => {
    const table = mountTable({ search: 'ann' })
    await table.setProps({ search: 'bob' })
    expect(table.find<HTMLInputElement>('input[type=search]').element.value).toBe('bob')
  })
})
