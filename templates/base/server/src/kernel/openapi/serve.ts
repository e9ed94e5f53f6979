import { createHash } from 'node:crypto'
import type { RequestHandler } from 'express'
import type { AppContext } from '../context.js'

/**
 * `GET /api/openapi.json`: the document is built on the first request (its builder and the
 * routes' descriptions load then, not at start-up) and kept, as the routes never change while
 * the app runs.
 */
export function openApiDocument(ctx: AppContext): RequestHandler {
  let json: Promise<string> | undefined
  return async (_req, res) => {
    json ??= import('./document.js').then(async ({ buildDocument }) => JSON.stringify(await buildDocument(ctx)))
    try {
      res.type('application/json').send(await json)
    } catch (error) {
      json = undefined
      throw error
    }
  }
}

/**
 * The reference's script, pinned by version, path and hash: its page is rendered by
 * @scalar/express-api-reference, which loads it from jsDelivr. The browser runs it only when its
 * bytes match SCALAR_INTEGRITY (Subresource Integrity), and the page's policy allows that one URL,
 * not the CDN's origin, so neither a changed file nor another package on the CDN can run on the
 * app's origin. jsDelivr serves a file named by its full path as the npm tarball holds it (only
 * the default-file URL is minified), so the hash is the tarball's: `npm pack
 * @scalar/api-reference@1.76.0`, then `openssl dgst -sha384 -binary
 * package/dist/browser/standalone.js | base64`. A new version needs both changed together.
 */
const SCALAR_SCRIPT = 'https://cdn.jsdelivr.net/npm/@scalar/api-reference@1.76.0/dist/browser/standalone.js'
const SCALAR_INTEGRITY = 'sha384-oH1C0RwqcwbVXkC+r8A+4qRoyEUQdtxAzOwumkxZtQBBcsy61FOoPt7B50OVJYYQ'

/**
 * `GET /api/docs` (API_DOCS): Scalar's interactive reference of the document. Its page runs the
 * reference's script and one inline script of its own, so it gets a policy of its own allowing
 * exactly those (the inline one by hash); every other answer keeps the API's `default-src 'none'`.
 */
export function apiReference(): RequestHandler {
  let page: Promise<{ html: string; policy: string }> | undefined
  return async (req, res, next) => {
    page ??= import('@scalar/express-api-reference').then(({ apiReference: reference }) => {
      let html = ''
      // The middleware only renders its page: it is handed a response that keeps it.
      const keep = { type: () => keep, send: (body: string) => void (html = body) }
      reference({ url: 'openapi.json', cdn: SCALAR_SCRIPT, withDefaultFonts: false, hideClientButton: true })(req as never, keep as never, next)
      const tag = `<script src="${SCALAR_SCRIPT}"`
      if (!html.includes(tag)) throw new Error(`the reference's page no longer loads ${SCALAR_SCRIPT} as expected`)
      html = html.replace(tag, `${tag} integrity="${SCALAR_INTEGRITY}" crossorigin="anonymous"`)
      const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(([, code]) => `'sha256-${createHash('sha256').update(code!).digest('base64')}'`)
      const policy = [
        "default-src 'none'",
        `script-src ${SCALAR_SCRIPT} ${inline.join(' ')}`,
        // The reference styles its elements at run time.
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        // It reads the document and sends "try it" requests to this API only.
        "connect-src 'self'",
        "worker-src blob:",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join('; ')
      return { html, policy }
    })
    const { html, policy } = await page
    res.setHeader('Content-Security-Policy', policy)
    res.type('text/html').send(html)
  }
}
