import supertest from 'supertest'
import { contextOf, responseProblem } from '../helpers/openapi.js'

// Every answer a test receives through supertest (an app built by helpers/test-app.ts) must be
// what the app's OpenAPI document says for that route and status; a mismatch fails the request
// like a failed `.expect()`. Files share a worker's modules, so the patch goes in once.

type Assert = (this: { app: unknown }, error: unknown, res: supertest.Response | undefined, fn?: (error: unknown, res?: supertest.Response) => void) => void
const Test = (supertest as unknown as { Test: { prototype: { assert: Assert } } }).Test
const PATCHED = Symbol.for('openapi.validate-responses')
const proto = Test.prototype as { assert: Assert; [PATCHED]?: boolean }

if (!proto[PATCHED]) {
  proto[PATCHED] = true
  const assert = proto.assert
  proto.assert = function (error, res, fn) {
    const ctx = contextOf(this.app)
    if (!ctx || !res || (error && !(error as { status?: number }).status)) return assert.call(this, error, res, fn)
    const req = (res as unknown as { req: { method: string; path: string } }).req
    responseProblem(ctx, req.method, req.path, res.status, res.headers['content-type'], res.body).then(
      (problem) => (problem ? fn?.call(this, new Error(`OpenAPI: ${problem}`), res) : assert.call(this, error, res, fn)),
      (thrown: unknown) => fn?.call(this, thrown, res),
    )
  }
}
