import { mount } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import { h, ref } from 'vue'
import DataTable from '@/components/DataTable.vue'
import { makeRouter } from './support/app'
import { paginate } from './support/paginate'

// Rule 7 word for word: what the table hands to the visit helper, seen through a stand-in.
const get = vi.fn()
vi.mock('@/plugins/visit', () => ({ useVisit: () => ({ get, processing: ref(false) }) }))

const rule7 = (query: object, routePath = '/people') =>
  ['/api/people', { query, routePath, preserveState: true, preserveScroll: true, skipFetch: true }] as const

describe('DataTable actions are GET visits with data.path and the rule 7 options', () => {
  it('for a page change, a size change and a search', async () => {
    const router = await makeRouter('/people?x=1')
    const table = mount(DataTable, {
      props: { data: paginate(2, 10), search: 'p', option: [10, 25], debounce: 0 },
      global: { plugins: [router] },
    })
    await table.find('[aria-label="Page 3"]').trigger('click')
    expect(get).toHaveBeenLastCalledWith(...rule7({ page: 3, size: 10, search: 'p' }))
    await table.find('select').setValue('25')
    expect(get).toHaveBeenLastCalledWith(...rule7({ page: 1, size: 25, search: 'p' }))
    await table.find('input[type=search]').setValue('pe')
    await vi.waitFor(() => expect(get).toHaveBeenLastCalledWith(...rule7({ page: 1, size: 10, search: 'pe' })))
    expect(get).toHaveBeenCalledTimes(3)
  })

  it('for a sort and a filter, each at page 1 and carrying the other', async () => {
    get.mockClear()
    const router = await makeRouter('/people')
    const table = mount(DataTable, {
      props: { data: paginate(2, 10), columns: [{ key: 'name', sortable: true }] },
      slots: { filters: ({ set }: any) => h('button', { class: 'admins', onClick: () => set('role', 'admin') }) },
      global: { plugins: [router] },
    })
    await table.find('th button').trigger('click')
    expect(get).toHaveBeenLastCalledWith(...rule7({ page: 1, size: 10, search: '', sort: 'name' }))
    await table.find('button.admins').trigger('click')
    expect(get).toHaveBeenLastCalledWith(...rule7({ page: 1, size: 10, search: '', sort: 'name', 'filter[role]': 'admin' }))
    expect(get).toHaveBeenCalledTimes(2)
  })

  it('the move off an emptied last page replaces the history entry', async () => {
    get.mockClear()
    const router = await makeRouter('/people')
    mount(DataTable, {
      props: { data: { ...paginate(3, 10), data: [], last_page: 2, total: 20 } },
      global: { plugins: [router] },
    })
    expect(get).toHaveBeenCalledWith('/api/people', { ...rule7({ page: 2, size: 10, search: '' })[1], replace: true })
  })

  it('renders without a router too', () => {
    const table = mount(DataTable, { props: { data: paginate() } })
    expect(table.findAll('tbody tr')).toHaveLength(10)
  })
})
