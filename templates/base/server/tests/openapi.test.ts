import { compileErrors, validate } from '@readme/openapi-parser'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { AppFeature } from '../src/kernel/context.js'
import { features } from '../src/features/index.js'
import { openApiPath } from '../src/kernel/openapi/document.js'
import { mountedRoutes, responseProblem } from './helpers/openapi.js'
import { names, useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

describe('the OpenAPI document (GET /api/openapi.json)', () => {
  let app: TestApp['app']
  let ctx: TestApp['ctx']
  let document: { openapi: string; paths: Record<string, Record<string, unknown>>; components: { securitySchemes: Record<string, { in: string; name: string }> } }
  beforeAll(async () => {
    ;({ app, ctx } = await t.build())
    const res = await supertest(app).get('/api/openapi.json')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    document = res.body
  })

  it('is valid OpenAPI 3.1, with the access cookie as its security scheme', async () => {
    expect(document.openapi).toMatch(/^3\.1\./)
    const result = await validate(structuredClone(document) as never)
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true)
    expect(document.components.securitySchemes.cookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: names(ctx).access })
  })

  it('describes exactly the routes the app mounts', () => {
    const documented = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`)).sort()
    const mounted = mountedRoutes(app).map((route) => {
      const [method, path] = route.split(' ')
      return `${method} ${openApiPath(path!)}`
    })
    expect({ missing: mounted.filter((route) => !documented.includes(route)), unmounted: documented.filter((route) => !mounted.includes(route)) }).toEqual({ missing: [], unmounted: [] })
  })

  it('fails a request whose answer breaks it, or whose status it does not list', async () => {
    // A stand-in layer whose route answers other than it documents: the test client refuses the answer.
    const liar: AppFeature = {
      name: 'liar',
      routes: { api: (router) => router.get('/liar', (_req, res) => void res.json({ said: 1 })) },
      openapi: async () => [{ method: 'get', path: '/api/liar', tag: 'Test', summary: 'Lies', responses: { 200: { description: 'Text', body: z.object({ said: z.string() }) } } }],
    }
    const { app: lying } = await t.build({ features: [...features, liar] })
    await expect(supertest(lying).get('/api/liar')).rejects.toThrow(/OpenAPI: GET \/api\/liar → 200: body does not match/)
    expect(await responseProblem(ctx, 'GET', '/api/auth/me', 418, 'application/json', { message: 'Teapot.' })).toMatch(/status not documented/)
    expect(await responseProblem(ctx, 'GET', '/api/auth/me', 401, 'application/json', { message: 'Unauthenticated.' })).toBeUndefined()
  })
})

describe('the API reference (GET /api/docs)', () => {
  it('serves Scalar under a policy of its own, leaving the API its default-src none', async () => {
    const { app } = await t.build()
    const res = await supertest(app).get('/api/docs')
    expect(res.status).toBe(200)
    expect(res.text).toContain('openapi.json')
    const policy = res.headers['content-security-policy']!
    const inline = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/.exec(res.text)![1]!
    const { createHash } = await import('node:crypto')
    expect(policy).toContain(`'sha256-${createHash('sha256').update(inline).digest('base64')}'`)
    expect(policy).not.toContain("'unsafe-eval'")
    // The one file, whole path, never the CDN's origin: any other package there would run too.
    const script = /<script src="([^"]+)" integrity="(sha384-[A-Za-z0-9+/]{64})" crossorigin="anonymous"/.exec(res.text)
    expect(script?.[1]).toMatch(/^https:\/\/cdn\.jsdelivr\.net\/npm\/@scalar\/api-reference@\d+\.\d+\.\d+\/dist\/browser\/standalone\.js$/)
    expect(policy).toContain(`script-src ${script![1]} `)
    expect(policy).not.toMatch(/script-src https:\/\/cdn\.jsdelivr\.net /)
    expect((await supertest(app).get('/api/health')).headers['content-security-policy']).toMatch(/^default-src 'none'/)
  })

  it('is off with API_DOCS=off: not mounted and not in the document', async () => {
    const { app } = await t.build({ env: { API_DOCS: 'off' } })
    expect((await supertest(app).get('/api/docs')).status).toBe(404)
    expect((await supertest(app).get('/api/openapi.json')).body.paths['/api/docs']).toBeUndefined()
  })
})
