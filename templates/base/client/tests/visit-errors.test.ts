import { describe, expect, it, vi } from 'vitest'
import { isHttpError, normalizeErrors, useVisit } from '@/plugins/visit'
import { startServer, type TestServer } from './support/server'
import { useLiveServer } from './support/app'

let server: TestServer
useLiveServer('/items', (live) => ({ server } = live))

const laravelShape = { message: 'The given data was invalid.', errors: { email: ['Taken.'], 'user.name': ['Too short.', 'Odd.'] } }
const issuesShape = {
  error: {
    issues: [
      { path: ['user', 'email'], message: 'Invalid email' },
      { path: ['items', 0, 'name'], message: 'Required' },
      { path: ['items', 0, 'name'], message: 'Too long' },
    ],
  },
}

describe('normalizeErrors', () => {
  it('uses an `errors` object as it is', () => {
    expect(normalizeErrors(laravelShape)).toEqual(laravelShape.errors)
  })

  it('keys each issue by its path joined with dots', () => {
    const errors = normalizeErrors({ error: { issues: [{ path: ['user', 'email'], message: 'Invalid email' }] } })
    expect(errors).toEqual({ 'user.email': 'Invalid email' })
  })

  it('joins numeric segments too, and keeps every message of one path', () => {
    expect(normalizeErrors(issuesShape)).toEqual({ 'user.email': 'Invalid email', 'items.0.name': ['Required', 'Too long'] })
  })

  it('reads a ZodError serialised as it is ({ issues }) the same way', () => {
    expect(normalizeErrors({ issues: issuesShape.error.issues })).toEqual(normalizeErrors(issuesShape))
  })

  it('gives an empty object for anything else', () => {
    for (const body of [undefined, null, 'Bad Gateway', { message: 'Server Error.' }, { error: 'x' }]) {
      expect(normalizeErrors(body)).toEqual({})
    }
  })
})

describe('failed visits', () => {
  it.each([
    ['errors object', laravelShape, laravelShape.errors],
    ['issues array', issuesShape, { 'user.email': 'Invalid email', 'items.0.name': ['Required', 'Too long'] }],
  ])('hand the normalized %s and the raw error to onError', async (_label, body, expected) => {
    server.on('POST', '/api/items', { status: 422, body })
    const onError = vi.fn()
    const result = await useVisit().post('/api/items', {}, { onError })
    expect(result).toBeUndefined()
    const [errors, raw] = onError.mock.calls[0]!
    expect(errors).toEqual(expected)
    expect(isHttpError(raw) && raw.response?.status).toBe(422)
  })

  it('with onError, the error counts as handled and is not rethrown', async () => {
    server.on('GET', '/api/items', { status: 500, body: { message: 'Server Error.' } })
    await expect(useVisit().get('/api/items', { onError: () => undefined })).resolves.toBeUndefined()
  })

  it('without onError, the caller gets the raw error', async () => {
    server.on('PUT', '/api/items', { status: 422, body: laravelShape })
    const error = await useVisit().put('/api/items', {}).catch((e: unknown) => e)
    expect(isHttpError(error)).toBe(true)
    expect(isHttpError(error) && error.response?.data).toEqual(laravelShape)
  })

  it('awaits an async onError', async () => {
    server.on('POST', '/api/items', { status: 422, body: laravelShape })
    const order: string[] = []
    await useVisit().post('/api/items', {}, {
      onError: async () => {
        await new Promise((r) => setTimeout(r, 10))
        order.push('error')
      },
      onFinish: () => void order.push('finish'),
    })
    expect(order).toEqual(['error', 'finish'])
  })

  it('rule 4: onFinish runs after success and after failure, rethrown or not', async () => {
    server.on('POST', '/api/fail', { status: 500, body: {} })
    const onFinish = vi.fn()
    const visit = useVisit()
    await visit.post('/api/ok', {}, { onFinish })
    await visit.post('/api/fail', {}, { onFinish, onError: () => undefined })
    await visit.post('/api/fail', {}, { onFinish }).catch(() => undefined)
    expect(onFinish).toHaveBeenCalledTimes(3)
    expect(visit.processing.value).toBe(false)
  })

  it('onSuccess is not called on failure, onError not on success', async () => {
    server.on('POST', '/api/fail', { status: 403, body: { message: 'Forbidden.' } })
    const onSuccess = vi.fn()
    const onError = vi.fn()
    await useVisit().post('/api/fail', {}, { onSuccess, onError })
    await useVisit().post('/api/ok', {}, { onSuccess: vi.fn(), onError })
    expect(onSuccess).not.toHaveBeenCalled()
    expect(onError).toHaveBeenCalledOnce()
    expect(onError.mock.calls[0]![0]).toEqual({})
  })

  it('a network failure reaches onError with empty errors', async () => {
    // A server of its own, closed: nothing listens on its port any more.
    const gone = await startServer()
    await gone.close()
    const onError = vi.fn()
    await useVisit().post(`${gone.url}/api/items`, {}, { onError })
    expect(onError).toHaveBeenCalledOnce()
    expect(onError.mock.calls[0]![0]).toEqual({})
  })
})
