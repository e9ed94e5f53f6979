import { describe, expect, it, vi } from 'vitest'
import { configureVisit, createHttp, isHttpError, useVisit, useVisitForm } from '@/plugins/visit'
import { useLiveServer } from './support/app'
import type { TestServer } from './support/server'
import { axiosLoaded } from './support/setup'

let server: TestServer
useLiveServer('/items', (live) => ({ server } = live))

const callbacks = () => ({ onSuccess: vi.fn(), onError: vi.fn(), onCancel: vi.fn(), onFinish: vi.fn() })

function upload(size = 1_000_000): FormData {
  const body = new FormData()
  body.append('title', 'Report')
  body.append('file', new Blob([new Uint8Array(size)]), 'report.pdf')
  return body
}

// The tests of this file run in order: axios is loaded once per file, by the first upload with progress.
describe('axios, loaded on demand', () => {
  it('is not loaded by visits without an upload-progress callback, FormData or not', async () => {
    const visit = useVisit()
    await visit.get('/api/items', { query: { page: 2 } })
    await visit.post('/api/items', { a: 1 })
    await visit.post('/api/upload', upload())
    await visit.delete('/api/items', { data: { ids: [1] } })
    const form = useVisitForm('post', '/api/items', { email: '' })
    await form.post('/api/items')
    form.data.email = 'a@example.com'
    form.validate('email')
    await vi.waitFor(() => expect(server.received).toHaveLength(6))
    // A progress callback on a JSON body asks for nothing that fetch cannot do.
    await visit.post('/api/items', { a: 1 }, { onProgress: () => undefined })
    expect(server.received[2]!.headers['content-type']).toMatch(/^multipart\/form-data/)
    expect(axiosLoaded).not.toHaveBeenCalled()
  })

  it('is loaded by the first upload with progress, which reports the progress the real server sees', async () => {
    const events: number[] = []
    const response = await useVisit().post('/api/upload', upload(2_000_000), {
      onProgress: (event) => void events.push(event.loaded / (event.total ?? 1)),
    })
    expect(axiosLoaded).toHaveBeenCalledOnce()
    expect(events.length).toBeGreaterThan(1)
    expect(events.at(-1)).toBe(1)
    expect(response?.data).toMatchObject({ method: 'POST' })
    const { headers, body } = server.received[0]!
    expect([headers['content-type'], headers.accept]).toEqual([expect.stringMatching(/^multipart\/form-data/), 'application/json'])
    expect(body).toContain('Report')
  })

  it('sends cookies along (withCredentials) and no XSRF header of its own', async () => {
    const { default: axios } = await import('axios')
    const request = vi.spyOn(axios, 'request')
    await useVisit().post('/api/upload', upload(10), { onProgress: () => undefined })
    expect(request.mock.calls[0]![0]).toMatchObject({ withCredentials: true, withXSRFToken: false })
    request.mockRestore()
  })

  it('a form with a file goes the same way: progress 0–100, then null', async () => {
    const form = useVisitForm({ title: 'Report', file: null as File | null })
    form.data.file = new File([new Uint8Array(1_000_000)], 'report.pdf')
    const seen: number[] = []
    const stop = setInterval(() => form.progress !== null && seen.push(form.progress), 1)
    await form.post('/api/upload')
    clearInterval(stop)
    expect(seen.at(-1)).toBe(100)
    expect(form.progress).toBeNull()
    expect(server.received[0]!.body).toContain('filename="report.pdf"')
  })
})

describe('every visit rule on the upload way', () => {
  it('field errors of a 422 land in onError and in the form', async () => {
    server.on('POST', '/api/upload', { status: 422, body: { message: 'Invalid.', errors: { file: ['Too big.'] } } })
    const form = useVisitForm({ file: new File(['x'], 'a.txt') })
    const onError = vi.fn()
    await form.post('/api/upload', undefined, { onError })
    expect(form.errors).toEqual({ file: ['Too big.'] })
    const raw = onError.mock.calls[0]![1]
    expect(isHttpError(raw) && raw.response?.status).toBe(422)
  })

  it('without onError, the caller gets the HttpError', async () => {
    server.on('POST', '/api/upload', { status: 500, body: { message: 'Server Error.' } })
    const error = await useVisit().post('/api/upload', upload(10), { onProgress: () => undefined }).catch((e: unknown) => e)
    expect(isHttpError(error) && error.response?.data).toEqual({ message: 'Server Error.' })
  })

  it('cancel() ends an upload under way in onCancel and onFinish, not onError', async () => {
    server.on('POST', '/api/upload', { delay: 1000, body: {} })
    const visit = useVisit()
    const calls = callbacks()
    const done = visit.post('/api/upload', upload(), { onProgress: () => undefined, ...calls })
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    visit.cancel()
    await expect(done).resolves.toBeUndefined()
    expect([calls.onSuccess, calls.onError, calls.onCancel, calls.onFinish].map((fn) => fn.mock.calls.length)).toEqual([0, 0, 1, 1])
    expect(visit.processing.value).toBe(false)
  })

  it.each([
    ['fetch', {}],
    ['axios', { onProgress: () => undefined }],
  ])('a timeout ends a visit by %s in onError, not onCancel', async (_way, progress) => {
    configureVisit({ http: createHttp({ baseURL: server.url, timeout: 150 }) })
    server.on('POST', '/api/upload', { delay: 1000, body: {} })
    const calls = callbacks()
    await useVisit().post('/api/upload', upload(10), { ...progress, ...calls })
    expect([calls.onSuccess, calls.onCancel, calls.onFinish].map((fn) => fn.mock.calls.length)).toEqual([0, 0, 1])
    const [errors, raw] = calls.onError.mock.calls[0]!
    expect(errors).toEqual({})
    expect(isHttpError(raw) && raw.timedOut).toBe(true)
  })
})
