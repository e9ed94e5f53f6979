import { randomBytes } from 'node:crypto'
import http from 'node:http'

export type Tamper = 'iss' | 'aud' | 'nonce'

export interface ClientCredentials {
  clientId: string
  clientSecret: string
}

export interface TamperingProxyOptions {
  tamper: Tamper
  port: number
  /** The provider's own port: every request is forwarded there, Host header unchanged, so the URLs it builds point at the proxy. */
  target: number
  authorizationPath: string
  tokenPath: string
  /** For 'aud': each registered client's stand-in, whose credentials replace the original's. */
  others?: Map<string, ClientCredentials>
}

interface Forwarded {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
}

// Hop-by-hop headers describe one connection, and bodies are re-framed with their own length.
const hopByHop = ['connection', 'keep-alive', 'transfer-encoding', 'content-length']

/**
 * Stands in front of a real oidc-provider and bends exactly one thing, so the tokens stay genuinely
 * signed and it is the relying party's own checks that must catch the lie.
 */
export async function startTamperingProxy(options: TamperingProxyOptions): Promise<{ url: string; close(): Promise<void> }> {
  const url = `http://127.0.0.1:${options.port}`
  const server = http.createServer((req, res) => {
    handle(options, url, req).then(
      ({ status, headers, body }) => {
        res.writeHead(status, { ...without(headers, hopByHop), 'content-length': body.length })
        res.end(body)
      },
      (error: unknown) => {
        res.writeHead(502, { 'content-type': 'text/plain' })
        res.end(`tampering proxy: ${String(error)}`)
      },
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, '127.0.0.1', resolve)
  })
  return { url, close: () => closeServer(server) }
}

async function handle(options: TamperingProxyOptions, url: string, req: http.IncomingMessage): Promise<Forwarded> {
  const target = new URL(req.url ?? '/', url)
  const headers = without(req.headers, hopByHop)
  let body = await readBody(req)

  if (req.method === 'GET' && target.pathname === options.authorizationPath) {
    if (options.tamper === 'nonce') target.searchParams.set('nonce', randomBytes(16).toString('base64url'))
    const other = options.tamper === 'aud' && options.others?.get(target.searchParams.get('client_id') ?? '')
    if (other) target.searchParams.set('client_id', other.clientId)
  }

  if (options.tamper === 'aud' && req.method === 'POST' && target.pathname === options.tokenPath) {
    // The code was issued to the other client, so it must also be redeemed as that client, whichever way the app authenticates.
    const basic = parseBasic(headers.authorization)
    const basicOther = basic && options.others?.get(basic.clientId)
    if (basicOther) headers.authorization = basicHeader(basicOther)
    const form = new URLSearchParams(body.toString())
    const formOther = options.others?.get(form.get('client_id') ?? '')
    if (formOther) {
      form.set('client_id', formOther.clientId)
      if (form.has('client_secret')) form.set('client_secret', formOther.clientSecret)
      body = Buffer.from(form.toString())
    }
  }

  const upstream = await forward(options.target, req.method ?? 'GET', target.pathname + target.search, headers, body)

  if (options.tamper === 'iss') {
    if (target.pathname === '/.well-known/openid-configuration' && upstream.status === 200) {
      const metadata = JSON.parse(upstream.body.toString()) as Record<string, unknown>
      upstream.body = Buffer.from(JSON.stringify({ ...metadata, issuer: url }))
    }
    // The callback's `iss` (RFC 9207) would give the lie away before the token is redeemed; matching
    // discovery, it leaves the ID token's `iss` as the only thing that disagrees.
    const location = typeof upstream.headers.location === 'string' ? new URL(upstream.headers.location, url) : undefined
    if (location?.searchParams.has('iss')) {
      location.searchParams.set('iss', url)
      upstream.headers.location = location.href
    }
  }
  return upstream
}

function forward(port: number, method: string, path: string, headers: http.OutgoingHttpHeaders, body: Buffer): Promise<Forwarded> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method, path, headers: method === 'GET' || method === 'HEAD' ? headers : { ...headers, 'content-length': body.length } },
      (response) => {
        readBody(response).then((responseBody) => resolve({ status: response.statusCode ?? 502, headers: response.headers, body: responseBody }), reject)
      },
    )
    request.once('error', reject)
    request.end(body)
  })
}

function readBody(stream: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    stream.once('end', () => resolve(Buffer.concat(chunks)))
    stream.once('error', reject)
  })
}

function without(headers: http.IncomingHttpHeaders, names: string[]): http.IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name)))
}

// client_secret_basic form-encodes both halves before base64 (RFC 6749 §2.3.1), as openid-client does.
const formDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '))
const formEncode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+')

function parseBasic(header: string | undefined): ClientCredentials | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '')
  if (!match?.[1]) return undefined
  const decoded = Buffer.from(match[1], 'base64').toString()
  const colon = decoded.indexOf(':')
  if (colon < 0) return undefined
  return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) }
}

function basicHeader({ clientId, clientSecret }: ClientCredentials): string {
  return `Basic ${Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`).toString('base64')}`
}

/** Closes a server without waiting for idle keep-alive connections (fetch keeps them open). */
export function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()))
    server.closeAllConnections()
  })
}
