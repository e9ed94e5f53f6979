import { describe, expect, it, vi } from 'vitest'
import { configureVisit, createHttp, isHttpError, useVisit, useVisitForm } from '@/plugins/visit'
import type { TestServer } from './support/server'
import { sleep, useLiveServer } from './support/app'
import { confirmRequired } from './support/confirm-its-you'

let server: TestServer
useLiveServer('/items', (live) => ({ server } = live))

/**
 * The visit helper on a client whose `confirm` answers with `answer`; `asked` keeps the signal
 * each question was given, which aborts when it is withdrawn.
 */
function confirmingWith(answer: () => Promise<boolean>) {
  const asked: AbortSignal[] = []
  const http = createHttp({ baseURL: server.url, confirm: (_refusal, withdrawn) => (asked.push(withdrawn), answer()) })
  configureVisit({ http })
  return { http, asked }
}

/** `METHOD path` refused until `state.confirmed`, then answering `{ saved: <its JSON> }`. */
function guarded(method: string, path: string) {
  const state = { confirmed: false }
  server.on(method, path, (req) => (state.confirmed ? { body: { saved: req.json ?? null } } : confirmRequired))
  return state
}

const sent = (method: string, path: string) => server.received.filter((r) => r.method === method && r.path === path)

/** A question the test answers when it likes. */
function pendingAnswer() {
  let settle!: (confirmed: boolean) => void
  const answer = new Promise<boolean>((resolve) => (settle = resolve))
  return { answer: () => answer, settle }
}

describe('a sensitive request refused until the user confirms it’s them (403 with errors.confirm)', () => {
  it('asks, and once confirmed sends the same request again, whose answer the visit gets', async () => {
    const state = guarded('POST', '/api/items')
    const { asked } = confirmingWith(async () => ((state.confirmed = true), true))
    const onSuccess = vi.fn()
    const onError = vi.fn()
    await useVisit().post('/api/items', { name: 'Ann' }, { onSuccess, onError })
    expect(asked).toHaveLength(1)
    expect(sent('POST', '/api/items').map((r) => r.json)).toEqual([{ name: 'Ann' }, { name: 'Ann' }])
    expect(onSuccess.mock.calls[0]![0].data).toEqual({ saved: { name: 'Ann' } })
    expect(onError).not.toHaveBeenCalled()
  })

  it('keeps the visit processing while it asks', async () => {
    const state = guarded('DELETE', '/api/items')
    const { answer, settle } = pendingAnswer()
    const { asked } = confirmingWith(answer)
    const form = useVisitForm({ ids: [1] })
    const done = form.delete('/api/items')
    await vi.waitFor(() => expect(asked).toHaveLength(1))
    expect(form.processing).toBe(true)
    state.confirmed = true
    settle(true)
    await done
    expect(form.processing).toBe(false)
    expect(form.wasSuccessful).toBe(true)
    expect(sent('DELETE', '/api/items')).toHaveLength(2)
  })

  it('declined: the visit fails with the 403, a form with `confirm` as its only error', async () => {
    guarded('PATCH', '/api/items/1')
    const { http, asked } = confirmingWith(async () => false)
    const heard = vi.fn()
    http.onError(heard)
    const form = useVisitForm({ name: 'Ann' })
    const onError = vi.fn()
    await form.patch('/api/items/1', undefined, { onError })
    expect(asked).toHaveLength(1)
    expect(sent('PATCH', '/api/items/1')).toHaveLength(1)
    expect(form.errors).toEqual({ confirm: ['Confirm it’s you to continue.'] })
    const [errors, raw] = onError.mock.calls[0]!
    expect(errors).toEqual({ confirm: ['Confirm it’s you to continue.'] })
    expect(isHttpError(raw) && raw.response?.status).toBe(403)
    expect(heard).toHaveBeenCalledTimes(1)
  })

  it('repeats once only: refused again, the visit fails with that answer and asks no more', async () => {
    guarded('POST', '/api/items')
    const { asked } = confirmingWith(async () => true)
    const onError = vi.fn()
    await useVisit().post('/api/items', {}, { onError })
    expect(asked).toHaveLength(1)
    expect(sent('POST', '/api/items')).toHaveLength(2)
    expect(onError.mock.calls[0]![0]).toEqual({ confirm: ['Confirm it’s you to continue.'] })
  })

  it('tells onError listeners only the outcome: nothing when the repeat succeeds', async () => {
    const state = guarded('POST', '/api/items')
    const { http } = confirmingWith(async () => ((state.confirmed = true), true))
    const heard = vi.fn()
    http.onError(heard)
    await useVisit().post('/api/items', {})
    expect(heard).not.toHaveBeenCalled()
  })

  it('asks once for requests refused while the question is open, and repeats each', async () => {
    const state = guarded('POST', '/api/items')
    server.on('DELETE', '/api/items/2', (req) => (state.confirmed ? { status: 204 } : confirmRequired))
    const { answer, settle } = pendingAnswer()
    const { asked } = confirmingWith(answer)
    const first = useVisit().post('/api/items', { name: 'Ann' })
    const second = useVisit().delete('/api/items/2')
    await vi.waitFor(() => expect(sent('DELETE', '/api/items/2')).toHaveLength(1))
    await vi.waitFor(() => expect(sent('POST', '/api/items')).toHaveLength(1))
    await sleep(20)
    expect(asked).toHaveLength(1)
    state.confirmed = true
    settle(true)
    expect((await first)?.data).toEqual({ saved: { name: 'Ann' } })
    expect((await second)?.status).toBe(204)
  })

  it('a visit cancelled while it waits ends in onCancel, is not repeated, and the question is withdrawn', async () => {
    guarded('POST', '/api/items')
    const { answer, settle } = pendingAnswer()
    const { asked } = confirmingWith(answer)
    const visit = useVisit()
    const onCancel = vi.fn()
    const onError = vi.fn()
    const done = visit.post('/api/items', {}, { onCancel, onError })
    await vi.waitFor(() => expect(asked).toHaveLength(1))
    expect(asked[0]!.aborted).toBe(false)
    visit.cancel()
    await done
    expect(onCancel).toHaveBeenCalledTimes(1)
    expect(onError).not.toHaveBeenCalled()
    expect(asked[0]!.aborted).toBe(true)
    settle(true)
    await sleep(20)
    expect(sent('POST', '/api/items')).toHaveLength(1)
  })

  it('the question stays while another request still waits for it', async () => {
    const state = guarded('POST', '/api/items')
    const { answer, settle } = pendingAnswer()
    const { asked } = confirmingWith(answer)
    const left = useVisit()
    const staying = useVisit()
    void left.post('/api/items', { name: 'left' })
    const kept = staying.post('/api/items', { name: 'kept' })
    await vi.waitFor(() => expect(sent('POST', '/api/items')).toHaveLength(2))
    await sleep(20)
    left.cancel()
    await sleep(20)
    expect(asked[0]!.aborted).toBe(false)
    state.confirmed = true
    settle(true)
    expect((await kept)?.data).toEqual({ saved: { name: 'kept' } })
    expect(sent('POST', '/api/items').map((r) => r.json.name)).toEqual(['left', 'kept', 'kept'])
  })

  it('the plain client asks and repeats the same way', async () => {
    const state = guarded('PUT', '/api/items/1')
    const { http, asked } = confirmingWith(async () => ((state.confirmed = true), true))
    const { data } = await http.request({ url: '/api/items/1', method: 'put', data: { name: 'Ann' } })
    expect(data).toEqual({ saved: { name: 'Ann' } })
    expect(asked).toHaveLength(1)
  })

  it('other 403s are refusals, not questions', async () => {
    server.on('DELETE', '/api/items/1', { status: 403, body: { message: 'This action is unauthorized.' } })
    const { asked } = confirmingWith(async () => true)
    const onError = vi.fn()
    await useVisit().delete('/api/items/1', { onError })
    expect(asked).toHaveLength(0)
    expect(sent('DELETE', '/api/items/1')).toHaveLength(1)
    expect(onError).toHaveBeenCalledTimes(1)
  })

  it('live validation never asks: the submission will', async () => {
    guarded('PUT', '/api/items/1')
    const { asked } = confirmingWith(async () => true)
    const form = useVisitForm('put', '/api/items/1', { name: '' }).setValidationTimeout(10)
    form.data.name = 'Ann'
    form.validate('name')
    await vi.waitFor(() => expect(sent('PUT', '/api/items/1')).toHaveLength(1))
    await vi.waitFor(() => expect(form.validating).toBe(false))
    expect(asked).toHaveLength(0)
    expect(form.errors).toEqual({})
  })

  it('without a `confirm` of its own, the client lets the 403 through', async () => {
    guarded('POST', '/api/items')
    configureVisit({ http: createHttp({ baseURL: server.url }) })
    const onError = vi.fn()
    await useVisit().post('/api/items', {}, { onError })
    expect(sent('POST', '/api/items')).toHaveLength(1)
    expect(onError.mock.calls[0]![0]).toEqual({ confirm: ['Confirm it’s you to continue.'] })
  })
})
