import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { errorMessage } from '@/lib/http'
import { createHttp, isCancel, isHttpError, normalizeErrors, type HttpError, type HttpRequest } from '@/plugins/visit'
import { startServer, type TestServer } from './support/server'

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => server.reset())

function upload(): FormData {
  const body = new FormData()
  body.append('file', new Blob([new Uint8Array(100_000)]), 'a.bin')
  return body
}

// The same rules on both ways a request can go: fetch, and axios for an upload with progress.
const ways = [
  { way: 'fetch', body: (): Partial<HttpRequest> => ({ data: { name: 'Ann' } }), type: /^application\/json/ },
  { way: 'axios', body: (): Partial<HttpRequest> => ({ data: upload(), onUploadProgress: () => undefined }), type: /^multipart\/form-data/ },
]

const failure = (promise: Promise<unknown>) => promise.then(() => expect.unreachable('resolved'), (error: unknown) => error)

describe.each(ways)('the HTTP client, by $way', ({ body, type }) => {
  const http = (timeout?: number) => createHttp({ baseURL: server.url, timeout })

  it('sends JSON-accepting requests with the method upper-cased, and answers status, lower-case headers and parsed JSON', async () => {
    server.on('PATCH', '/api/items/1', { status: 201, body: { ok: true }, headers: { 'X-Trace': 'abc' } })
    const response = await http().request({ url: '/api/items/1', method: 'patch', ...body() })
    expect(response).toMatchObject({ status: 201, data: { ok: true }, headers: { 'x-trace': 'abc' } })
    const { method, headers } = server.received[0]!
    expect([method, headers.accept]).toEqual(['PATCH', 'application/json'])
    expect(headers['content-type']).toMatch(type)
  })

  it('gives a body that is not JSON as its text', async () => {
    server.on('POST', '/api/items', { status: 502, raw: '<h1>Bad Gateway</h1>', headers: { 'content-type': 'text/html' } })
    const error = (await failure(http().request({ url: '/api/items', method: 'post', ...body() }))) as HttpError
    expect(error.response?.data).toBe('<h1>Bad Gateway</h1>')
    expect(errorMessage(error)).toBe('Request failed (502).')
  })

  it.each([
    [422, { message: 'The given data was invalid.', errors: { email: ['Taken.'] } }],
    [401, { message: 'Unauthenticated.' }],
    [403, { message: 'Forbidden.' }],
    [404, { message: 'Not Found.' }],
    [419, { message: 'Page Expired.' }],
    [429, { message: 'Too Many Requests.' }],
    [500, { message: 'Server Error.' }],
    [503, { message: 'Service Unavailable.' }],
  ])('rejects a %i with an HttpError holding the answer', async (status, answer) => {
    server.on('POST', '/api/items', { status, body: answer, headers: { 'Retry-After': '7' } })
    const error = await failure(http().request({ url: '/api/items', method: 'post', ...body() }))
    expect(isHttpError(error) && error.response).toMatchObject({ status, data: answer, headers: { 'retry-after': '7' } })
    expect(errorMessage(error)).toBe(answer.message)
    expect(normalizeErrors(error)).toEqual(status === 422 ? { email: ['Taken.'] } : {})
  })

  it('tells its error listeners of each failure before the caller, with the request as it was made', async () => {
    server.on('POST', '/api/items', { status: 401, body: { message: 'Unauthenticated.' } })
    const client = http()
    const seen: string[] = []
    const stop = client.onError((error) => void seen.push(`${error.response?.status} ${error.request.url}`))
    await failure(client.request({ url: '/api/items', method: 'post', ...body() })).then(() => seen.push('caller'))
    stop()
    await failure(client.request({ url: '/api/items', method: 'post', ...body() }))
    expect(seen).toEqual(['401 /api/items', 'caller'])
  })

  it('rejects without a response when the server cannot be reached', async () => {
    const gone = await startServer()
    await gone.close()
    const error = await failure(createHttp().request({ url: `${gone.url}/api/items`, method: 'post', ...body() }))
    expect(isHttpError(error) && [error.response, error.timedOut]).toEqual([undefined, false])
    expect(errorMessage(error)).toMatch(/cannot be reached/)
  })

  it('gives up after its timeout, as a failure its listeners hear of', async () => {
    server.on('POST', '/api/items', { delay: 1000, body: {} })
    const client = http(150)
    const listener = vi.fn()
    client.onError(listener)
    const started = Date.now()
    const error = await failure(client.request({ url: '/api/items', method: 'post', ...body() }))
    expect(Date.now() - started).toBeLessThan(900)
    expect(isHttpError(error) && [error.response, error.timedOut]).toEqual([undefined, true])
    expect(errorMessage(error)).toMatch(/too long/)
    expect(listener).toHaveBeenCalledWith(error)
  })

  it('a request aborted by its signal is cancelled: no failure, no listener', async () => {
    server.on('POST', '/api/items', { delay: 1000, body: {} })
    const client = http(5000)
    const listener = vi.fn()
    client.onError(listener)
    const controller = new AbortController()
    const pending = failure(client.request({ url: '/api/items', method: 'post', ...body(), signal: controller.signal }))
    await vi.waitFor(() => expect(server.received).toHaveLength(1))
    controller.abort()
    expect(isCancel(await pending)).toBe(true)
    const before = new AbortController()
    before.abort()
    expect(isCancel(await failure(client.request({ url: '/api/other', method: 'post', ...body(), signal: before.signal })))).toBe(true)
    expect(listener).not.toHaveBeenCalled()
    expect(server.received).toHaveLength(1)
  })
})

describe('the fetch way', () => {
  it('sends cookies along (credentials: include, as withCredentials did) and nothing but what it was given', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch')
    await createHttp({ baseURL: server.url }).request({ url: '/api/items', headers: { Precognition: 'true' } })
    expect(fetch.mock.calls[0]![1]).toMatchObject({ method: 'GET', credentials: 'include', body: undefined })
    expect(fetch.mock.calls[0]![1]!.headers).toEqual({ Accept: 'application/json', Precognition: 'true' })
    fetch.mockRestore()
  })

  it('sends a FormData body without a progress callback as multipart', async () => {
    await createHttp({ baseURL: server.url }).request({ url: '/api/upload', method: 'post', data: upload() })
    expect(server.received[0]!.headers['content-type']).toMatch(/^multipart\/form-data/)
  })

  it('leaves an absolute URL as it is', async () => {
    await createHttp({ baseURL: 'http://127.0.0.1:1' }).request({ url: `${server.url}/api/items` })
    expect(server.received).toHaveLength(1)
  })
})
