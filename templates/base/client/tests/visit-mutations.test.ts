import { describe, expect, it, vi } from 'vitest'
import type { Router } from 'vue-router'
import { useVisit, useVisitRemember } from '@/plugins/visit'
import type { TestServer } from './support/server'
import { sleep, useLiveServer } from './support/app'

let server: TestServer
let router: Router
useLiveServer('/items?page=2', (live) => ({ server, router } = live))

describe('mutations', () => {
  it.each(['post', 'put', 'patch'] as const)('%s sends its data as a JSON body', async (method) => {
    const response = await useVisit()[method]('/api/items/1', { name: 'Ann', tags: ['a'] })
    expect(server.received[0]).toMatchObject({ method: method.toUpperCase(), path: '/api/items/1' })
    expect(server.received[0]!.json).toEqual({ name: 'Ann', tags: ['a'] })
    expect(server.received[0]!.headers['content-type']).toMatch(/application\/json/)
    expect(response?.status).toBe(200)
  })

  it('delete sends the data option as its body', async () => {
    await useVisit().delete('/api/items', { data: { ids: [1, 2] } })
    expect(server.received[0]).toMatchObject({ method: 'DELETE', path: '/api/items', json: { ids: [1, 2] } })
  })

  it('visit() takes the method as an option', async () => {
    await useVisit().visit('/api/items', { method: 'patch', data: { a: 1 } })
    expect(server.received[0]).toMatchObject({ method: 'PATCH', json: { a: 1 } })
  })

  it('rule 1: the interface route stays as it is', async () => {
    const push = vi.spyOn(router, 'push')
    const replace = vi.spyOn(router, 'replace')
    const visit = useVisit()
    await visit.post('/api/items', { a: 1 }, { query: { draft: 1 } })
    await visit.put('/api/items/1', { a: 2 })
    await visit.patch('/api/items/1', { a: 3 })
    await visit.delete('/api/items/1')
    expect(push).not.toHaveBeenCalled()
    expect(replace).not.toHaveBeenCalled()
    expect(router.currentRoute.value.fullPath).toBe('/items?page=2')
  })

  it('sends the query option to the API only', async () => {
    await useVisit().post('/api/items', { a: 1 }, { query: { draft: 1 } })
    expect(server.received[0]!.url).toBe('/api/items?draft=1')
    expect(router.currentRoute.value.query).toEqual({ page: '2' })
  })

  it('navigates only when a routePath is given', async () => {
    await useVisit().post('/api/items', { a: 1 }, { routePath: '/other' })
    expect(router.currentRoute.value.fullPath).toBe('/other')
  })

  it('rule 2: after success the page reloads the current query', async () => {
    const visit = useVisit()
    await visit.delete('/api/items', { data: { ids: [3] }, onSuccess: () => visit.reload() })
    expect(server.received.map((r) => `${r.method} ${r.url}`)).toEqual(['DELETE /api/items', 'GET /items?page=2'])
  })

  it('preserveState defaults to true for mutations', async () => {
    const state = useVisitRemember('open', { modal: false })
    state.modal = true
    await useVisit().post('/api/items', {})
    expect(state.modal).toBe(true)
    await useVisit().post('/api/items', {}, { preserveState: false })
    expect(state.modal).toBe(false)
  })

  it('skipFetch skips the API call of a mutation too', async () => {
    const onFinish = vi.fn()
    const result = await useVisit().post('/api/items', { a: 1 }, { skipFetch: true, onFinish })
    expect(server.received).toHaveLength(0)
    expect(result).toBeUndefined()
    expect(onFinish).toHaveBeenCalledOnce()
    await useVisit().delete('/api/items', { skipFetch: true, routePath: '/other' })
    expect(server.received).toHaveLength(0)
    expect(router.currentRoute.value.fullPath).toBe('/other')
  })

  it('takes the method in either case', async () => {
    await useVisit().visit('/api/items', { method: 'POST' as 'post', data: { a: 1 } })
    await useVisit().visit('/api/items', { method: 'GET' as 'get', query: { page: 5 } })
    expect(server.received.map((r) => r.method)).toEqual(['POST', 'GET'])
    expect(router.currentRoute.value.fullPath).toBe('/items?page=5')
  })

  it('processing is true as soon as the call returns, before any await', async () => {
    const visit = useVisit()
    const done = visit.post('/api/items', {})
    expect(visit.processing.value).toBe(true)
    await done
    expect(visit.processing.value).toBe(false)
  })

  it('is processing during the request', async () => {
    server.on('POST', '/api/items', { delay: 200, body: {} })
    const visit = useVisit()
    const done = visit.post('/api/items', {})
    await vi.waitFor(() => expect(visit.processing.value).toBe(true))
    await done
    expect(visit.processing.value).toBe(false)
  })
})

describe('rule 3: onBefore', () => {
  it.each([
    ['false', () => false],
    ['a promise of false', async () => false],
  ])('returning %s cancels before any request', async (_label, onBefore) => {
    const calls = { onStart: vi.fn(), onSuccess: vi.fn(), onError: vi.fn(), onFinish: vi.fn() }
    const visit = useVisit()
    const result = await visit.post('/api/items', { a: 1 }, { onBefore, ...calls })
    await sleep(20)
    expect(result).toBeUndefined()
    expect(server.received).toHaveLength(0)
    expect(visit.processing.value).toBe(false)
    for (const fn of Object.values(calls)) expect(fn).not.toHaveBeenCalled()
  })

  it('returning nothing or true lets the visit run', async () => {
    const visit = useVisit()
    await visit.post('/api/items', {}, { onBefore: () => undefined })
    await visit.post('/api/items', {}, { onBefore: async () => true })
    expect(server.received).toHaveLength(2)
  })

  it('also cancels GET visits, leaving the route alone', async () => {
    await useVisit().get('/api/items', { query: { page: 9 }, onBefore: () => false })
    expect(server.received).toHaveLength(0)
    expect(router.currentRoute.value.fullPath).toBe('/items?page=2')
  })

  it('is told what is about to be sent', async () => {
    const onBefore = vi.fn()
    await useVisit().post('/api/items', { a: 1 }, { onBefore, query: { q: 1 } })
    expect(onBefore).toHaveBeenCalledWith({ url: '/api/items', method: 'post', data: { a: 1 }, query: { q: 1 } })
  })
})

describe('callbacks', () => {
  it('run in order onBefore, onStart, onSuccess, onFinish, each awaited', async () => {
    const order: string[] = []
    const step = (name: string) => async () => {
      await sleep(5)
      order.push(name)
    }
    await useVisit().post('/api/items', {}, {
      onBefore: step('before'),
      onStart: step('start'),
      onSuccess: step('success'),
      onFinish: step('finish'),
    })
    expect(order).toEqual(['before', 'start', 'success', 'finish'])
  })

  it('onStart runs before the request is sent', async () => {
    let seenAtStart = -1
    await useVisit().post('/api/items', {}, { onStart: () => void (seenAtStart = server.received.length) })
    expect(seenAtStart).toBe(0)
  })
})

describe('rule 4: preserveScroll on a mutation', () => {
  it('restores the position after the page updated in onSuccess', async () => {
    window.scrollTo(0, 300)
    await useVisit().delete('/api/items', {
      preserveScroll: true,
      // The page refetches and re-renders, which may move the scroll position.
      onSuccess: async () => {
        window.scrollTo(0, 0)
        await router.push('/items?page=1')
      },
    })
    expect(window.scrollY).toBe(300)
  })

  it('leaves the scroll position to the page without it', async () => {
    window.scrollTo(0, 300)
    await useVisit().delete('/api/items', { onSuccess: () => window.scrollTo(0, 10) })
    expect(window.scrollY).toBe(10)
  })
})

describe('onProgress', () => {
  it('reports upload progress of a FormData body', async () => {
    const events: number[] = []
    const body = new FormData()
    body.append('file', new Blob([new Uint8Array(2_000_000)]), 'big.bin')
    await useVisit().post('/api/upload', body, { onProgress: (e) => events.push(e.loaded / (e.total ?? 1)) })
    expect(events.length).toBeGreaterThan(0)
    expect(events.at(-1)).toBe(1)
    expect(server.received[0]!.headers['content-type']).toMatch(/^multipart\/form-data/)
  })

  it('is not called for a JSON body', async () => {
    const onProgress = vi.fn()
    await useVisit().post('/api/items', { text: 'x'.repeat(100_000) }, { onProgress })
    expect(onProgress).not.toHaveBeenCalled()
  })
})
