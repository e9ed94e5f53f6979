import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Router } from 'vue-router'
import { isHttpError, RECENTLY_SUCCESSFUL_MS, useVisitForm } from '@/plugins/visit'
import type { TestServer } from './support/server'
import { sleep, useLiveServer } from './support/app'

let server: TestServer
let router: Router
useLiveServer('/items', (live) => ({ server, router } = live))
afterEach(() => vi.useRealTimers())

const validation = { message: 'Invalid.', errors: { email: ['The email has already been taken.'] } }

describe('useVisitForm: state', () => {
  it('starts with every member in its initial state', () => {
    const form = useVisitForm({ email: 'a@b.c', remember: false })
    expect(form.data).toEqual({ email: 'a@b.c', remember: false })
    expect(form.errors).toEqual({})
    expect(form.processing).toBe(false)
    expect(form.progress).toBeNull()
    expect(form.wasSuccessful).toBe(false)
    expect(form.recentlySuccessful).toBe(false)
    expect(form.isDirty).toBe(false)
  })

  it('keeps its own copy of the initial data', () => {
    const initial = { tags: ['a'] }
    const form = useVisitForm(initial)
    form.data.tags.push('b')
    expect(initial.tags).toEqual(['a'])
  })

  it('isDirty compares deeply with the initial values', () => {
    const form = useVisitForm({ name: 'Ann', address: { city: 'Oslo' }, tags: ['a'] })
    form.data.address.city = 'Bergen'
    expect(form.isDirty).toBe(true)
    form.data.address.city = 'Oslo'
    expect(form.isDirty).toBe(false)
    form.data.tags.push('b')
    expect(form.isDirty).toBe(true)
    form.data.tags.pop()
    expect(form.isDirty).toBe(false)
    form.data.address = { city: 'Oslo' }
    expect(form.isDirty).toBe(false)
  })

  it('setError and clearErrors, all or by name', () => {
    const form = useVisitForm({ a: '', b: '' })
    form.setError('a', 'Required.')
    form.setError('b', 'Too short.')
    expect(form.errors).toEqual({ a: 'Required.', b: 'Too short.' })
    form.clearErrors('a')
    expect(form.errors).toEqual({ b: 'Too short.' })
    form.setError('a', 'Again.')
    form.clearErrors()
    expect(form.errors).toEqual({})
  })

  it('setError also takes several fields at once; hasErrors tells whether there are any', () => {
    const form = useVisitForm({ a: '', b: '', c: '' })
    expect(form.hasErrors).toBe(false)
    form.setError({ a: 'Required.', b: ['Too short.', 'Odd.'] })
    expect(form.errors).toEqual({ a: 'Required.', b: ['Too short.', 'Odd.'] })
    expect(form.hasErrors).toBe(true)
    form.clearErrors()
    expect(form.hasErrors).toBe(false)
  })

  it('clearErrors(...fields) and reset(...fields) take several names', () => {
    const form = useVisitForm({ a: 1, b: 2, c: 3 })
    form.setError('a', 'A.')
    form.setError('b', 'B.')
    form.setError('c', 'C.')
    form.clearErrors('a', 'c')
    expect(form.errors).toEqual({ b: 'B.' })
    Object.assign(form.data, { a: 10, b: 20, c: 30 })
    form.reset('a', 'b')
    expect(form.data).toEqual({ a: 1, b: 2, c: 30 })
  })

  it('reset() restores all values, or only the named ones, and leaves errors alone', () => {
    const form = useVisitForm({ email: 'a@b.c', password: '', nested: { x: 1 } })
    form.data.email = 'x@y.z'
    form.data.password = 'secret'
    form.data.nested.x = 2
    form.setError('password', 'Wrong.')
    form.reset('password')
    expect(form.data).toEqual({ email: 'x@y.z', password: '', nested: { x: 2 } })
    form.reset()
    expect(form.data).toEqual({ email: 'a@b.c', password: '', nested: { x: 1 } })
    expect(form.errors).toEqual({ password: 'Wrong.' })
    // The initial values are not shared with the form after a reset either.
    form.data.nested.x = 3
    form.reset()
    expect(form.data.nested.x).toBe(1)
  })
})

describe('useVisitForm: submitting', () => {
  it('post(url) sends the form data', async () => {
    const form = useVisitForm({ email: 'a@b.c', remember: true })
    await form.post('/api/login')
    expect(server.received[0]).toMatchObject({ method: 'POST', path: '/api/login', json: { email: 'a@b.c', remember: true } })
  })

  it('post(url, data) sends the given data instead', async () => {
    const form = useVisitForm({ password: 'a', password_confirmation: 'a' })
    await form.post('/api/register', { password: form.data.password })
    expect(server.received[0]!.json).toEqual({ password: 'a' })
  })

  it('put, patch and delete exist alongside post', async () => {
    const form = useVisitForm({ name: 'x' })
    await form.put('/api/a')
    await form.patch('/api/a')
    await form.delete('/api/a')
    expect(server.received.map((r) => `${r.method} ${JSON.stringify(r.json)}`)).toEqual([
      'PUT {"name":"x"}',
      'PATCH {"name":"x"}',
      'DELETE {"name":"x"}',
    ])
  })

  it('get(url) sends the form data in the query and updates the route, as a GET visit', async () => {
    const form = useVisitForm({ search: 'ann', page: 2 })
    await form.get('/api/items')
    expect(server.received[0]).toMatchObject({ method: 'GET', path: '/api/items', query: { search: 'ann', page: '2' } })
    expect(router.currentRoute.value.fullPath).toBe('/items?search=ann&page=2')
    expect(form.wasSuccessful).toBe(true)
  })

  it('submit(method, url, options) sends the form data with that method, as in Inertia', async () => {
    const onSuccess = vi.fn()
    const form = useVisitForm({ name: 'x' })
    await form.submit('put', '/api/a', { onSuccess })
    expect(server.received[0]).toMatchObject({ method: 'PUT', path: '/api/a', json: { name: 'x' } })
    expect(onSuccess).toHaveBeenCalledOnce()
  })

  it('processing is true as soon as post() is called', async () => {
    const form = useVisitForm({ a: 1 })
    const done = form.post('/api/save')
    expect(form.processing).toBe(true)
    await done
    expect(form.processing).toBe(false)
  })

  it('is processing while the request runs', async () => {
    server.on('POST', '/api/slow', { delay: 200, body: {} })
    const form = useVisitForm({ a: 1 })
    const seen: boolean[] = []
    const done = form.post('/api/slow', undefined, { onStart: () => void seen.push(form.processing) })
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    expect(form.processing).toBe(true)
    await done
    expect(seen).toEqual([true])
    expect(form.processing).toBe(false)
  })

  it('sets wasSuccessful and recentlySuccessful for 2000 ms after success', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const form = useVisitForm({ a: 1 })
    await form.post('/api/save')
    expect(form.wasSuccessful).toBe(true)
    expect(form.recentlySuccessful).toBe(true)
    expect(RECENTLY_SUCCESSFUL_MS).toBe(2000)
    vi.advanceTimersByTime(1990)
    expect(form.recentlySuccessful).toBe(true)
    vi.advanceTimersByTime(20)
    expect(form.recentlySuccessful).toBe(false)
    expect(form.wasSuccessful).toBe(true)
  })

  it('a new submission clears both success flags until it succeeds', async () => {
    server.on('POST', '/api/fail', { status: 422, body: validation })
    const form = useVisitForm({ a: 1 })
    await form.post('/api/save')
    await form.post('/api/fail', undefined, { onError: () => undefined })
    expect(form.wasSuccessful).toBe(false)
    expect(form.recentlySuccessful).toBe(false)
  })

  it('calls the caller’s onSuccess with the response, after its own state is set, still processing', async () => {
    server.on('POST', '/api/save', { body: { id: 7 } })
    const form = useVisitForm({ a: 1 })
    let state: unknown
    await form.post('/api/save', undefined, {
      onSuccess: (response) => void (state = { data: response.data, was: form.wasSuccessful, busy: form.processing }),
    })
    expect(state).toEqual({ data: { id: 7 }, was: true, busy: true })
    expect(form.processing).toBe(false)
  })

  it('onBefore returning false sends nothing and leaves the form idle', async () => {
    const form = useVisitForm({ a: 1 })
    await form.post('/api/save', undefined, { onBefore: () => Promise.resolve(false) })
    expect(server.received).toHaveLength(0)
    expect(form.processing).toBe(false)
  })

  it('onFinish runs after success and after failure', async () => {
    server.on('POST', '/api/fail', { status: 500, body: {} })
    const onFinish = vi.fn()
    const form = useVisitForm({ a: 1 })
    await form.post('/api/save', undefined, { onFinish })
    await form.post('/api/fail', undefined, { onFinish, onError: () => undefined })
    expect(onFinish).toHaveBeenCalledTimes(2)
  })
})

describe('useVisitForm: errors', () => {
  it('writes an `errors` body into form.errors and hands it to onError', async () => {
    server.on('POST', '/api/register', { status: 422, body: validation })
    const form = useVisitForm({ email: 'taken@example.com' })
    const onError = vi.fn()
    await form.post('/api/register', undefined, { onError })
    expect(form.errors).toEqual(validation.errors)
    expect(onError.mock.calls[0]![0]).toEqual(validation.errors)
    expect(form.processing).toBe(false)
  })

  it('writes an issues body with dotted paths', async () => {
    server.on('POST', '/api/orders', {
      status: 422,
      body: { error: { issues: [{ path: ['user', 'email'], message: 'Invalid email' }, { path: ['items', 0, 'name'], message: 'Required' }] } },
    })
    const form = useVisitForm({ user: { email: '' }, items: [{ name: '' }] })
    await form.post('/api/orders', undefined, { onError: () => undefined })
    expect(form.errors).toEqual({ 'user.email': 'Invalid email', 'items.0.name': 'Required' })
  })

  it('without onError, sets the errors and still throws to the caller', async () => {
    server.on('POST', '/api/register', { status: 422, body: validation })
    const form = useVisitForm({ email: '' })
    const error = await form.post('/api/register').catch((e: unknown) => e)
    expect(isHttpError(error) && error.response?.status).toBe(422)
    expect(form.errors).toEqual(validation.errors)
    expect(form.processing).toBe(false)
  })

  it('a success clears earlier errors', async () => {
    const form = useVisitForm({ email: '' })
    form.setError('email', 'Required.')
    await form.post('/api/save')
    expect(form.errors).toEqual({})
  })
})

describe('useVisitForm: uploads', () => {
  it('reports FormData upload progress 0–100 in `progress`, then null again', async () => {
    let seenAtStart: number | null | undefined
    const seen: number[] = []
    const form = useVisitForm({ title: '' })
    const body = new FormData()
    body.append('title', 'Report')
    body.append('file', new Blob([new Uint8Array(4_000_000)]), 'report.pdf')
    const stop = setInterval(() => form.progress !== null && seen.push(form.progress), 1)
    await form.post('/api/upload', body, {
      onStart: () => void (seenAtStart = form.progress),
      onSuccess: () => void (seen.push(-1)),
    })
    clearInterval(stop)
    expect(seenAtStart).toBe(0)
    expect(form.progress).toBeNull()
    expect(seen.every((p) => p === -1 || (p >= 0 && p <= 100))).toBe(true)
    expect(server.received[0]!.headers['content-type']).toMatch(/^multipart\/form-data/)
    expect(server.received[0]!.body).toContain('Report')
  })

  it('reaches 100 before the response, whatever the sampling', async () => {
    server.on('POST', '/api/upload', { delay: 100, body: {} })
    const form = useVisitForm({})
    const body = new FormData()
    body.append('file', new Blob([new Uint8Array(1_000_000)]), 'a.bin')
    const done = form.post('/api/upload', body)
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    expect(form.progress).toBe(100)
    await done
    expect(form.progress).toBeNull()
  })

  it('keeps progress null for JSON bodies', async () => {
    server.on('POST', '/api/save', { delay: 100, body: {} })
    const form = useVisitForm({ text: 'x'.repeat(50_000) })
    const done = form.post('/api/save')
    await sleep(50)
    expect(form.progress).toBeNull()
    await done
  })

  it('sends File values in its data as multipart, as Inertia does', async () => {
    const form = useVisitForm({ name: 'Ann', avatar: null as File | null })
    form.data.avatar = new File(['png-bytes'], 'me.png', { type: 'image/png' })
    await form.post('/api/profile')
    const { headers, body } = server.received[0]!
    expect(headers['content-type']).toMatch(/^multipart\/form-data/)
    expect(body).toContain('filename="me.png"')
    expect(body).toContain('png-bytes')
  })
})
