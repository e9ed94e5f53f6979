import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  method: string
  url: string
  path: string
  query: Record<string, string>
  headers: http.IncomingHttpHeaders
  body: string
  /** Parsed JSON body, when it was JSON. */
  json: any
}

export interface Reply {
  status?: number
  body?: unknown
  /** Sent as it is instead of `body` as JSON (a proxy's HTML error page, say). */
  raw?: string
  /** Milliseconds before answering, to keep a request in flight. */
  delay?: number
  headers?: Record<string, string>
}

type Route = Reply | ((req: Received) => Reply | Promise<Reply>)

/**
 * A real HTTP server on a free port for the client tests: it records each request and answers
 * with what the test registered for `METHOD /path`, else 200 with an echo of the request.
 */
export async function startServer() {
  const routes = new Map<string, Route>()
  const received: Received[] = []

  const server = http.createServer((req, res) => {
    // happy-dom runs at http://localhost:3000: answer its CORS checks like a permissive API.
    res.setHeader('access-control-allow-origin', req.headers.origin ?? '*')
    res.setHeader('access-control-allow-credentials', 'true')
    res.setHeader('access-control-allow-methods', 'GET,POST,PUT,PATCH,DELETE')
    res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? '*')
    if (req.method === 'OPTIONS') return void res.writeHead(204).end()

    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', async () => {
      const target = new URL(req.url ?? '/', 'http://x')
      const body = Buffer.concat(chunks).toString('latin1')
      let json: any
      try {
        json = body ? JSON.parse(body) : undefined
      } catch {
        json = undefined
      }
      const record: Received = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        path: target.pathname,
        query: Object.fromEntries(target.searchParams),
        headers: req.headers,
        body,
        json,
      }
      received.push(record)
      const route = routes.get(`${record.method} ${record.path}`)
      const reply: Reply =
        typeof route === 'function'
          ? await route(record)
          : (route ?? { body: { method: record.method, url: record.url, json: record.json } })
      if (reply.delay) await new Promise((r) => setTimeout(r, reply.delay))
      if (res.destroyed) return
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers })
      res.end(reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)))
    })
  })

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    received,
    on(method: string, path: string, route: Route) {
      routes.set(`${method.toUpperCase()} ${path}`, route)
    },
    reset() {
      routes.clear()
      received.length = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export type TestServer = Awaited<ReturnType<typeof startServer>>
