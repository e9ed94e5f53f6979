import { mount } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import type { Router } from 'vue-router'
import { useVisit, useVisitForm } from '@/plugins/visit'
import type { TestServer } from './support/server'
import { ignoreAborts, sleep, useLiveServer } from './support/app'

let server: TestServer
let router: Router
useLiveServer('/items', (live) => ({ server, router } = live))

const callbacks = () => ({ onSuccess: vi.fn(), onError: vi.fn(), onCancel: vi.fn(), onFinish: vi.fn() })

/** A component whose setup starts a visit, as a page does on arrival. */
function mountWith(start: () => unknown) {
  return mount(defineComponent({ setup: () => (start(), () => h('div')) }))
}

describe('GETs and mutations side by side', () => {
  it('a GET during a POST: both land, the POST is not cut off', async () => {
    server.on('POST', '/api/items', { delay: 120, body: { saved: true } })
    server.on('GET', '/api/items', { body: { page: 2 } })
    const post = callbacks()
    const get = callbacks()
    const posting = useVisit().post('/api/items', { a: 1 }, post)
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    await useVisit().get('/api/items', { query: { page: 2 }, ...get })
    await posting
    expect(post.onSuccess.mock.calls[0]![0].data).toEqual({ saved: true })
    expect(get.onSuccess).toHaveBeenCalledOnce()
    expect([post.onCancel, get.onCancel].map((fn) => fn.mock.calls.length)).toEqual([0, 0])
    expect(router.currentRoute.value.fullPath).toBe('/items?page=2')
  })

  it('a form’s submission runs on while the page’s list is fetched', async () => {
    server.on('PUT', '/api/items/1', { delay: 100, body: { saved: true } })
    const form = useVisitForm({ name: 'Ann' })
    const onSuccess = vi.fn()
    const saving = form.put('/api/items/1', undefined, { onSuccess })
    await useVisit().reload()
    await saving
    expect(onSuccess).toHaveBeenCalledOnce()
    expect(form.wasSuccessful).toBe(true)
  })

  it('GETs for different route paths do not cancel each other', async () => {
    server.on('GET', '/api/a', { delay: 80, body: {} })
    const a = callbacks()
    const b = callbacks()
    const first = useVisit().get('/api/a', { routePath: '/items', ...a })
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    await useVisit().get('/api/b', { routePath: '/other', ...b })
    await first
    expect([a.onSuccess, b.onSuccess].map((fn) => fn.mock.calls.length)).toEqual([1, 1])
  })
})

describe('a stale GET response is never applied', () => {
  it('even when the abort cannot stop it (the sequence guard)', async () => {
    ignoreAborts()
    server.on('GET', '/api/items', (req) => ({ delay: req.query.page === '1' ? 150 : 10, body: { page: req.query.page } }))
    const slow = callbacks()
    const fast = callbacks()
    const first = useVisit().get('/api/items', { query: { page: 1 }, ...slow })
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    await useVisit().get('/api/items', { query: { page: 2 }, ...fast })
    await first
    expect(slow.onSuccess).not.toHaveBeenCalled()
    expect(slow.onError).not.toHaveBeenCalled()
    expect(slow.onCancel).toHaveBeenCalledOnce()
    expect(slow.onFinish).toHaveBeenCalledOnce()
    expect(fast.onSuccess.mock.calls[0]![0].data).toEqual({ page: '2' })
    expect(router.currentRoute.value.query).toEqual({ page: '2' })
  })

  it('nor a stale failure: a superseded GET that fails ends in onCancel, not onError', async () => {
    ignoreAborts()
    server.on('GET', '/api/items', (req) =>
      req.query.page === '1' ? { delay: 120, status: 500, body: { message: 'Server Error.' } } : { body: {} },
    )
    const slow = callbacks()
    const first = useVisit().get('/api/items', { query: { page: 1 }, ...slow })
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    await useVisit().get('/api/items', { query: { page: 2 } })
    await first
    expect(slow.onError).not.toHaveBeenCalled()
    expect(slow.onCancel).toHaveBeenCalledOnce()
  })

  it('nor one whose route update waited on a slow navigation guard while a newer GET finished', async () => {
    server.on('GET', '/api/items', (req) => ({ body: { page: req.query.page } }))
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    let guarding = false
    router.beforeEach(async (to) => {
      if (to.query.page !== '1') return
      guarding = true
      await held
    })
    const landed: unknown[] = []
    const slow = callbacks()
    const fast = callbacks()
    for (const calls of [slow, fast]) calls.onSuccess.mockImplementation(({ data }) => landed.push(data))
    const first = useVisit().get('/api/items', { query: { page: 1 }, ...slow })
    // Page 1's response is in; its router.push waits on the guard.
    await vi.waitFor(() => expect(guarding).toBe(true))
    await useVisit().get('/api/items', { query: { page: 2 }, ...fast })
    expect(landed).toEqual([{ page: '2' }])
    release()
    const result = await first
    expect(slow.onSuccess).not.toHaveBeenCalled()
    expect(landed).toEqual([{ page: '2' }])
    expect(result).toBeUndefined()
    expect(slow.onCancel).toHaveBeenCalledOnce()
    expect(slow.onFinish).toHaveBeenCalledOnce()
    expect(router.currentRoute.value.query).toEqual({ page: '2' })
  })
})

describe('a component’s visits end with it', () => {
  it('unmounting cancels an unfinished mutation: onCancel and onFinish run, onError does not', async () => {
    server.on('POST', '/api/items', { delay: 150, body: {} })
    const calls = callbacks()
    let done: Promise<unknown> | undefined
    let visit!: ReturnType<typeof useVisit>
    const wrapper = mountWith(() => {
      visit = useVisit()
      done = visit.post('/api/items', { a: 1 }, calls)
    })
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    wrapper.unmount()
    expect(await done).toBeUndefined()
    expect(calls.onCancel).toHaveBeenCalledOnce()
    expect(calls.onFinish).toHaveBeenCalledOnce()
    expect(calls.onSuccess).not.toHaveBeenCalled()
    expect(calls.onError).not.toHaveBeenCalled()
    expect(visit.processing.value).toBe(false)
  })

  it('a GET too: the route stays where the user went', async () => {
    server.on('GET', '/api/items', { delay: 100, body: {} })
    const calls = callbacks()
    const wrapper = mountWith(() => useVisit().get('/api/items', { query: { page: 3 }, ...calls }))
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    wrapper.unmount()
    await sleep(150)
    expect(calls.onCancel).toHaveBeenCalledOnce()
    expect(router.currentRoute.value.fullPath).toBe('/items')
  })

  it('and a form’s submission', async () => {
    server.on('POST', '/api/save', { delay: 100, body: {} })
    let form!: ReturnType<typeof useVisitForm<{ a: number }>>
    const onCancel = vi.fn()
    const wrapper = mountWith(() => {
      form = useVisitForm({ a: 1 })
      void form.post('/api/save', undefined, { onCancel })
    })
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    wrapper.unmount()
    await vi.waitFor(() => expect(onCancel).toHaveBeenCalledOnce())
    expect([form.processing, form.wasSuccessful]).toEqual([false, false])
  })

  it('but a visit whose response is in is not cut off when its onSuccess leaves the page', async () => {
    const calls = callbacks()
    let wrapper: ReturnType<typeof mountWith> | undefined
    calls.onSuccess.mockImplementation(async () => {
      wrapper!.unmount()
      await sleep(10)
    })
    wrapper = mountWith(() => useVisit().post('/api/login', {}, calls))
    await vi.waitFor(() => expect(calls.onFinish).toHaveBeenCalledOnce())
    expect(calls.onSuccess).toHaveBeenCalledOnce()
    expect(calls.onCancel).not.toHaveBeenCalled()
  })

  it('visits started outside any component are not tied to one', async () => {
    server.on('POST', '/api/items', { delay: 50, body: {} })
    const onSuccess = vi.fn()
    const wrapper = mountWith(() => undefined)
    const done = useVisit().post('/api/items', {}, { onSuccess })
    wrapper.unmount()
    await done
    expect(onSuccess).toHaveBeenCalledOnce()
  })
})
