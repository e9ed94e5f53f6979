import { flushPromises, mount } from '@vue/test-utils'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import DataTable from '@/components/DataTable.vue'
import { configureVisit, createHttp, useVisit } from '@/plugins/visit'
import { paginate } from './support/paginate'
import { startServer, type TestServer } from './support/server'

// No vue-router anywhere in this file: the visits fall back to the browser's history.
let server: TestServer

beforeAll(async () => {
  server = await startServer()
  configureVisit({ http: createHttp({ baseURL: server.url }) })
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  window.history.replaceState(null, '', '/items')
})

const here = () => `${window.location.pathname}${window.location.search}`

describe('visits without a router', () => {
  it('a GET still requests <url>?<query> and moves the browser URL to <routePath>?<query>', async () => {
    await useVisit().get('/api/items', { query: { page: 2, search: 'a b' }, routePath: '/list' })
    expect(server.received[0]).toMatchObject({ method: 'GET', path: '/api/items', query: { page: '2', search: 'a b' } })
    expect(here()).toBe('/list?page=2&search=a+b')
  })

  it('routePath defaults to the current path; replace replaces the history entry', async () => {
    const length = window.history.length
    await useVisit().get('/api/items', { query: { page: 3 }, skipFetch: true, replace: true })
    expect(here()).toBe('/items?page=3')
    expect(window.history.length).toBe(length)
    expect(server.received).toHaveLength(0)
  })

  it('reload() GETs the current path with the current query', async () => {
    window.history.replaceState(null, '', '/items?page=4&size=5')
    await useVisit().reload()
    expect(server.received[0]!.url).toBe('/items?page=4&size=5')
  })

  it('a DataTable rendered on its own moves the URL when paging', async () => {
    const table = mount(DataTable, { props: { data: paginate() }, attachTo: document.body })
    await table.find('[aria-label="Page 2"]').trigger('click')
    await flushPromises()
    expect(here()).toBe('/items?page=2&size=10&search=')
    expect(server.received).toHaveLength(0)
    table.unmount()
  })
})
