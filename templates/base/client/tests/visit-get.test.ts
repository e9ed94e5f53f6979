import { describe, expect, it, vi } from 'vitest'
import { watch } from 'vue'
import type { Router } from 'vue-router'
import { useVisit, useVisitRemember, type Query } from '@/plugins/visit'
import type { TestServer } from './support/server'
import { useLiveServer } from './support/app'

let server: TestServer
let router: Router
useLiveServer('/items', (live) => ({ server, router } = live))

const gets = () => server.received.filter((r) => r.method === 'GET')

describe('GET visits', () => {
  it('rule 1: requests GET <url>?<query>', async () => {
    await useVisit().get('/api/items', { query: { page: 2, size: 5, search: 'ann lee' } })
    expect(gets()).toHaveLength(1)
    expect(gets()[0]!.path).toBe('/api/items')
    expect(gets()[0]!.query).toEqual({ page: '2', size: '5', search: 'ann lee' })
  })

  it('rule 2: the route becomes <routePath>?<query>, apart from the API path', async () => {
    await useVisit().get('/api/items', { query: { page: 3, size: 10, search: 'x' }, routePath: '/other' })
    expect(router.currentRoute.value.path).toBe('/other')
    expect(router.currentRoute.value.query).toEqual({ page: '3', size: '10', search: 'x' })
    expect(gets()[0]!.path).toBe('/api/items')
  })

  it('routePath defaults to the current route path', async () => {
    await useVisit().get('/api/items', { query: { page: 2 } })
    expect(router.currentRoute.value.fullPath).toBe('/items?page=2')
  })

  it('rule 3: skipFetch navigates without any request', async () => {
    const onSuccess = vi.fn()
    const onFinish = vi.fn()
    const result = await useVisit().get('/api/items', { query: { page: 4 }, skipFetch: true, onSuccess, onFinish })
    expect(server.received).toHaveLength(0)
    expect(router.currentRoute.value.fullPath).toBe('/items?page=4')
    expect(result).toBeUndefined()
    expect(onSuccess).not.toHaveBeenCalled()
    expect(onFinish).toHaveBeenCalledOnce()
  })

  it('writes an empty search and repeated keys, and drops null and undefined', async () => {
    await useVisit().get('/api/items', { query: { search: '', tag: ['a', 'b'], gone: null, missing: undefined } })
    expect(gets()[0]!.url).toBe('/api/items?search=&tag=a&tag=b')
    expect(router.currentRoute.value.query).toEqual({ search: '', tag: ['a', 'b'] })
  })

  it('sends plain data given to a GET in the query, as Inertia does', async () => {
    await useVisit().visit('/api/items', { data: { page: 2 }, query: { size: 5 } })
    expect(gets()[0]!.query).toEqual({ page: '2', size: '5' })
  })

  it('resolves with the response and hands it to onSuccess', async () => {
    server.on('GET', '/api/items', { body: { data: [1, 2] } })
    const onSuccess = vi.fn()
    const response = await useVisit().get('/api/items', { onSuccess })
    expect(response?.data).toEqual({ data: [1, 2] })
    expect(onSuccess).toHaveBeenCalledWith(response)
  })

  it('pushes a history entry by default and replaces it with replace: true', async () => {
    const push = vi.spyOn(router, 'push')
    const replace = vi.spyOn(router, 'replace')
    const visit = useVisit()
    await visit.get('/api/items', { query: { page: 2 }, skipFetch: true })
    expect(push).toHaveBeenCalledOnce()
    await visit.get('/api/items', { query: { page: 3 }, skipFetch: true, replace: true })
    expect(replace).toHaveBeenCalledOnce()
    router.back()
    await new Promise((r) => setTimeout(r, 10))
    // page=2 was replaced by page=3, so back leaves both behind.
    expect(router.currentRoute.value.fullPath).toBe('/items')
  })

  it('is processing while the request runs', async () => {
    server.on('GET', '/api/slow', { delay: 200, body: {} })
    const visit = useVisit()
    expect(visit.processing.value).toBe(false)
    const done = visit.get('/api/slow')
    await vi.waitFor(() => expect(visit.processing.value).toBe(true))
    await done
    expect(visit.processing.value).toBe(false)
  })

  it('the route is updated only after the response arrived', async () => {
    server.on('GET', '/api/slow', { delay: 60, body: {} })
    const done = useVisit().get('/api/slow', { query: { page: 9 } })
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    expect(router.currentRoute.value.fullPath).toBe('/items')
    await done
    expect(router.currentRoute.value.fullPath).toBe('/items?page=9')
  })

  it('a failed GET leaves the route alone', async () => {
    server.on('GET', '/api/items', { status: 500, body: { message: 'Server Error.' } })
    await useVisit().get('/api/items', { query: { page: 2 }, onError: () => undefined })
    expect(router.currentRoute.value.fullPath).toBe('/items')
  })
})

describe('a newer GET aborts an unfinished older one', () => {
  it('so the slow old response never lands', async () => {
    server.on('GET', '/api/items', (req) => ({ delay: req.query.page === '1' ? 150 : 0, body: { page: req.query.page } }))
    const first = { onSuccess: vi.fn(), onCancel: vi.fn(), onFinish: vi.fn() }
    const second = { onSuccess: vi.fn() }
    const slow = useVisit().get('/api/items', { query: { page: 1 }, ...first })
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    await useVisit().get('/api/items', { query: { page: 2 }, ...second })
    expect(await slow).toBeUndefined()
    expect(first.onSuccess).not.toHaveBeenCalled()
    expect(first.onCancel).toHaveBeenCalledOnce()
    expect(first.onFinish).toHaveBeenCalledOnce()
    expect(second.onSuccess.mock.calls[0]![0].data).toEqual({ page: '2' })
    await new Promise((r) => setTimeout(r, 200))
    expect(router.currentRoute.value.query).toEqual({ page: '2' })
  })

  it('also when the newer visit only navigates (skipFetch)', async () => {
    server.on('GET', '/api/items', { delay: 100, body: {} })
    const onSuccess = vi.fn()
    const slow = useVisit().get('/api/items', { query: { page: 1 }, onSuccess })
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    await useVisit().get('/api/items', { query: { page: 5 }, skipFetch: true })
    await slow
    expect(onSuccess).not.toHaveBeenCalled()
    expect(router.currentRoute.value.query).toEqual({ page: '5' })
  })

  it('but mutations are never aborted by a GET', async () => {
    server.on('POST', '/api/items', { delay: 80, body: { saved: true } })
    const onSuccess = vi.fn()
    const post = useVisit().post('/api/items', { a: 1 }, { onSuccess })
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    await useVisit().get('/api/items', { skipFetch: true, query: { page: 2 } })
    await post
    expect(onSuccess).toHaveBeenCalledOnce()
  })
})

describe('preserveState', () => {
  it('defaults to false for GET: remembered state starts over', async () => {
    const state = useVisitRemember('tab', { active: 'a' })
    state.active = 'b'
    await useVisit().get('/api/items', { skipFetch: true, query: { page: 2 } })
    expect(state.active).toBe('a')
  })

  it('true keeps remembered state', async () => {
    const state = useVisitRemember('tab', { active: 'a' })
    state.active = 'b'
    await useVisit().get('/api/items', { skipFetch: true, query: { page: 2 }, preserveState: true })
    expect(state.active).toBe('b')
  })
})

describe('preserveScroll', () => {
  it('restores the scroll position after the route update', async () => {
    window.scrollTo(0, 480)
    await useVisit().get('/api/items', { query: { page: 2 }, preserveScroll: true })
    expect(window.scrollY).toBe(480)
  })

  it('is off by default: the router scrolls a new page to the top', async () => {
    window.scrollTo(0, 480)
    await useVisit().get('/api/items', { query: { page: 3 } })
    await new Promise((r) => setTimeout(r, 30))
    expect(window.scrollY).toBe(0)
  })

  it('also restores elements marked scroll-region', async () => {
    const region = document.createElement('div')
    region.setAttribute('scroll-region', '')
    document.body.append(region)
    region.scrollTo(0, 120)
    window.scrollTo(0, 50)
    await useVisit().get('/api/items', {
      query: { page: 2 },
      preserveScroll: true,
      onSuccess: () => region.scrollTo(0, 0),
    })
    expect(region.scrollTop).toBe(120)
    region.remove()
  })
})

describe('preserveUrl', () => {
  it('loads in place: the request goes out, the route and remembered state stay', async () => {
    const state = useVisitRemember('tab', { active: 'a' })
    state.active = 'b'
    const push = vi.spyOn(router, 'push')
    const replace = vi.spyOn(router, 'replace')
    const response = await useVisit().get('/api/items', { query: { page: 2, size: 10, search: '' }, preserveUrl: true })
    expect(gets().map((r) => r.url)).toEqual(['/api/items?page=2&size=10&search='])
    expect(response?.status).toBe(200)
    expect([push.mock.calls.length, replace.mock.calls.length]).toEqual([0, 0])
    expect(router.currentRoute.value.fullPath).toBe('/items')
    expect(state.active).toBe('b')
  })

  it('still obeys "the newest GET for a page lands": paging on supersedes a slow load', async () => {
    server.on('GET', '/api/items', { delay: 100, body: {} })
    const load = { onSuccess: vi.fn(), onCancel: vi.fn() }
    const loading = useVisit().get('/api/items', { query: { page: 1 }, preserveUrl: true, ...load })
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    await useVisit().get('/api/items', { query: { page: 2 }, skipFetch: true })
    await loading
    expect(load.onSuccess).not.toHaveBeenCalled()
    expect(load.onCancel).toHaveBeenCalledOnce()
  })

  it('the load a navigation sets off does not cut off that navigation’s scroll restore', async () => {
    // As a list page does: its route-query watcher loads what the route now says.
    let loaded: Promise<unknown> | undefined
    const stop = watch(
      () => router.currentRoute.value.query,
      (query) => (loaded = useVisit().get('/api/items', { query: query as Query, preserveUrl: true })),
    )
    window.scrollTo(0, 480)
    const onCancel = vi.fn()
    await useVisit().get('/api/items', { query: { page: 2 }, skipFetch: true, preserveScroll: true, onCancel })
    await loaded
    stop()
    expect(server.received.map((r) => r.url)).toEqual(['/api/items?page=2'])
    expect(onCancel).not.toHaveBeenCalled()
    expect(window.scrollY).toBe(480)
  })
})

describe('reload()', () => {
  it('GETs the current route with the current query, in place', async () => {
    await router.push('/items?page=2&size=5&search=ab')
    await new Promise((r) => setTimeout(r, 20)) // the router's own scroll-to-top for that push
    const replace = vi.spyOn(router, 'replace')
    window.scrollTo(0, 200)
    await useVisit().reload()
    expect(gets()[0]!.path).toBe('/items')
    expect(gets()[0]!.query).toEqual({ page: '2', size: '5', search: 'ab' })
    expect(replace).toHaveBeenCalledOnce()
    expect(router.currentRoute.value.fullPath).toBe('/items?page=2&size=5&search=ab')
    expect(window.scrollY).toBe(200)
  })

  it('takes extra query keys and callbacks', async () => {
    await router.push('/items?page=2')
    const onSuccess = vi.fn()
    await useVisit().reload({ query: { size: 25 }, onSuccess })
    expect(gets()[0]!.query).toEqual({ page: '2', size: '25' })
    expect(onSuccess).toHaveBeenCalledOnce()
  })
})
