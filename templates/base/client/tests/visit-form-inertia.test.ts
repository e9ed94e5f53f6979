import { describe, expect, it, vi } from 'vitest'
import { useVisitForm } from '@/plugins/visit'
import type { TestServer } from './support/server'
import { sleep, useLiveServer } from './support/app'

// The members Inertia's useForm has beyond the basic form helper, with its semantics.
let server: TestServer
useLiveServer('/items', (live) => ({ server } = live))

describe('transform', () => {
  it('reshapes the form’s own data on every submission, and is chainable', async () => {
    const form = useVisitForm({ name: ' Ann ', password: 'a', password_confirmation: 'a' }).transform(({ name, password }) => ({
      name: name.trim(),
      password,
    }))
    await form.post('/api/register')
    await form.put('/api/register')
    expect(server.received.map((r) => r.json)).toEqual([
      { name: 'Ann', password: 'a' },
      { name: 'Ann', password: 'a' },
    ])
    // It works on a copy: the form keeps its values.
    expect(form.data.name).toBe(' Ann ')
  })

  it('applies to get() too, and not to data given explicitly', async () => {
    const form = useVisitForm({ search: 'ann', draft: 'x' }).transform(({ search }) => ({ search }))
    await form.get('/api/items')
    await form.post('/api/items', { other: 1 })
    expect(server.received[0]!.query).toEqual({ search: 'ann' })
    expect(server.received[1]!.json).toEqual({ other: 1 })
  })
})

describe('defaults', () => {
  it('defaults() makes the current values the defaults', () => {
    const form = useVisitForm({ name: 'Ann', city: 'Oslo' })
    form.data.name = 'Bob'
    expect(form.isDirty).toBe(true)
    form.defaults()
    expect(form.isDirty).toBe(false)
    form.data.name = 'Cy'
    form.reset()
    expect(form.data).toEqual({ name: 'Bob', city: 'Oslo' })
  })

  it('defaults(field, value) and defaults(object) change some defaults', () => {
    const form = useVisitForm({ name: 'Ann', city: 'Oslo', tags: [] as string[] })
    form.defaults('name', 'Bob').defaults({ city: 'Bergen' })
    expect(form.isDirty).toBe(true)
    form.reset()
    expect(form.data).toEqual({ name: 'Bob', city: 'Bergen', tags: [] })
    expect(form.isDirty).toBe(false)
  })

  it('a successful submission makes the submitted values the defaults, as in Inertia', async () => {
    const form = useVisitForm({ name: 'Ann' })
    form.data.name = 'Bob'
    await form.patch('/api/profile')
    expect(form.isDirty).toBe(false)
    form.data.name = 'Cy'
    form.reset()
    expect(form.data.name).toBe('Bob')
  })

  it('…after the caller’s onSuccess, so a reset there still empties the form', async () => {
    const form = useVisitForm({ password: '' })
    form.data.password = 'secret'
    await form.put('/api/password', undefined, { onSuccess: () => void form.reset() })
    expect(form.data.password).toBe('')
    expect(form.isDirty).toBe(false)
  })

  it('a failed submission leaves the defaults alone', async () => {
    server.on('PATCH', '/api/profile', { status: 422, body: { message: 'Invalid.', errors: { name: ['No.'] } } })
    const form = useVisitForm({ name: 'Ann' })
    form.data.name = 'Bob'
    await form.patch('/api/profile', undefined, { onError: () => undefined })
    expect(form.isDirty).toBe(true)
  })
})

describe('a data factory', () => {
  it('is called again by reset(), which leaves the form clean', () => {
    let calls = 0
    const form = useVisitForm(() => ({ name: `Ann ${++calls}`, city: 'Oslo' }))
    expect(form.data.name).toBe('Ann 1')
    form.data.city = 'Bergen'
    form.reset()
    expect(form.data).toEqual({ name: 'Ann 2', city: 'Oslo' })
    expect(form.isDirty).toBe(false)
  })

  it('reset(field) takes that field from a fresh call', () => {
    let calls = 0
    const form = useVisitForm(() => ({ stamp: ++calls, note: '' }))
    form.data.note = 'kept'
    form.reset('stamp')
    expect(form.data).toEqual({ stamp: 2, note: 'kept' })
  })
})

describe('resetAndClearErrors', () => {
  it('resets and clears the errors of the named fields, or of all', () => {
    const form = useVisitForm({ a: '', b: '' })
    Object.assign(form.data, { a: 'x', b: 'y' })
    form.setError({ a: 'A.', b: 'B.' })
    form.resetAndClearErrors('a')
    expect(form.data).toEqual({ a: '', b: 'y' })
    expect(form.errors).toEqual({ b: 'B.' })
    form.resetAndClearErrors()
    expect([form.data, form.errors]).toEqual([{ a: '', b: '' }, {}])
  })
})

describe('submit(method, url, options)', () => {
  it('needs a method and a URL unless the form has a precognition endpoint', () => {
    expect(() => useVisitForm({ a: 1 }).submit()).toThrow(/endpoint/)
  })
})

describe('cancel()', () => {
  it('ends the unfinished submission in onCancel and onFinish, not onSuccess or onError', async () => {
    server.on('POST', '/api/slow', { delay: 150, body: {} })
    const calls = { onSuccess: vi.fn(), onError: vi.fn(), onCancel: vi.fn(), onFinish: vi.fn() }
    const form = useVisitForm({ a: 1 })
    const done = form.post('/api/slow', undefined, calls)
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    form.cancel()
    expect(await done).toBeUndefined()
    expect(calls.onCancel).toHaveBeenCalledOnce()
    expect(calls.onFinish).toHaveBeenCalledOnce()
    expect(calls.onSuccess).not.toHaveBeenCalled()
    expect(calls.onError).not.toHaveBeenCalled()
    expect([form.processing, form.wasSuccessful]).toEqual([false, false])
  })
})

describe('processing until onFinish has run (Inertia #2463)', () => {
  it('stays true through an async onSuccess and onFinish', async () => {
    const seen: Record<string, boolean> = {}
    const form = useVisitForm({ a: 1 })
    await form.post('/api/save', undefined, {
      onSuccess: async () => {
        await sleep(30)
        seen.success = form.processing
      },
      onFinish: async () => {
        await sleep(30)
        seen.finish = form.processing
      },
    })
    expect(seen).toEqual({ success: true, finish: true })
    expect(form.processing).toBe(false)
  })

  it('stays true through an async onError', async () => {
    server.on('POST', '/api/fail', { status: 422, body: { message: 'Invalid.', errors: { a: ['No.'] } } })
    const form = useVisitForm({ a: 1 })
    let during: boolean | undefined
    const done = form.post('/api/fail', undefined, {
      onError: async () => {
        await sleep(50)
        during = form.processing
      },
    })
    await sleep(30)
    expect(form.processing).toBe(true)
    await done
    expect([during, form.processing]).toEqual([true, false])
  })

  it('goes back to false even when onFinish throws', async () => {
    const form = useVisitForm({ a: 1 })
    const error = await form
      .post('/api/save', undefined, {
        onFinish: () => {
          throw new Error('boom')
        },
      })
      .catch((e: Error) => e)
    expect((error as Error).message).toBe('boom')
    expect(form.processing).toBe(false)
  })
})
