import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import { freePort } from './processes.js'

export interface GitHubUser {
  id: number
  login: string
  name?: string | null
  emails: { email: string; primary: boolean; verified: boolean }[]
}

export interface GitHubStandIn {
  /** OAUTH_GITHUB_URL (web: /login/oauth/authorize, /login/oauth/access_token) */
  url: string
  /** OAUTH_GITHUB_API_URL (/user, /user/emails): `${url}/api/v3`, laid out like GitHub Enterprise Server. */
  apiUrl: string
  /** The user the next authorizations sign in as: the stand-in has no sign-in page, so the `login` given to authorizeAt is ignored. */
  user(user: GitHubUser): void
  close(): Promise<void>
}

interface Grant {
  userId: number
  scope: string[]
}

interface IssuedCode extends Grant {
  redirectUri: string
  challenge: string | undefined
  expiresAt: number
}

const CODE_LIFETIME_MS = 10 * 60_000
const DOCS = 'https://docs.github.com'

// GitHub answers token errors with 200 and these bodies (error_uri shortened to the anchor it names).
const tokenErrors = {
  bad_verification_code: 'The code passed is incorrect or expired.',
  incorrect_client_credentials: 'The client_id and/or client_secret passed are incorrect.',
  redirect_uri_mismatch: 'The redirect_uri MUST match the registered callback URL for this application.',
} as const
type TokenError = keyof typeof tokenErrors
const tokenErrorUri = (error: TokenError) =>
  `${DOCS}/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#${error.replaceAll('_', '-')}`

/**
 * The one provider here that is not the real thing: GitHub's OAuth app endpoints and the two REST
 * calls a sign-in needs cannot run locally, so this speaks their shapes instead. Where GitHub is
 * lenient the stand-in is strict, to catch an app that leans on the leniency:
 * - authorize redirects at once (the user has already approved the app); an unknown client_id gets
 *   GitHub's 404 page, a redirect_uri other than the registered one (exact match, no sub-paths) is
 *   sent back to the registered one with error=redirect_uri_mismatch, as GitHub does;
 * - PKCE is optional as on GitHub, but only S256, and a code issued with a challenge needs its verifier;
 * - codes are single use (consumed by any redemption attempt) and last 10 minutes;
 * - /user/emails needs the `user:email` (or `user`) scope, like GitHub (404 otherwise), and every
 *   API call needs a User-Agent (403 otherwise); /user has `email: null`, a user who keeps theirs private.
 */
export async function startGitHubStandIn(client: { clientId: string; clientSecret: string; redirectUri: string }): Promise<GitHubStandIn> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const apiUrl = `${url}/api/v3`
  const users = new Map<number, GitHubUser>()
  let current: number | undefined
  const codes = new Map<string, IssuedCode>()
  const tokens = new Map<string, Grant>()

  function authorize(query: URLSearchParams, res: http.ServerResponse) {
    if (query.get('client_id') !== client.clientId) return html(res, 404, 'Not Found')
    const redirectUri = query.get('redirect_uri') ?? client.redirectUri
    // Errors go to the registered URI: the one asked for is not trusted.
    const back = new URL(client.redirectUri)
    const state = query.get('state')
    const send = (params: Record<string, string>) => {
      for (const [name, value] of Object.entries(params)) back.searchParams.set(name, value)
      if (state !== null) back.searchParams.set('state', state)
      res.writeHead(302, { location: back.href }).end()
    }
    if (redirectUri !== client.redirectUri) {
      return send({
        error: 'redirect_uri_mismatch',
        error_description: tokenErrors.redirect_uri_mismatch,
        error_uri: `${DOCS}/apps/managing-oauth-apps/troubleshooting-authorization-request-errors/#redirect-uri-mismatch`,
      })
    }
    const challenge = query.get('code_challenge') ?? undefined
    if (challenge !== undefined && query.get('code_challenge_method') !== 'S256') {
      return send({ error: 'invalid_request', error_description: 'code_challenge_method must be S256' })
    }
    if (current === undefined) return html(res, 500, 'GitHub stand-in: call user() before authorizing')
    const code = randomBytes(10).toString('hex')
    const scope = (query.get('scope') ?? '').split(/[\s,]+/).filter(Boolean)
    codes.set(code, { userId: current, scope, redirectUri, challenge, expiresAt: Date.now() + CODE_LIFETIME_MS })
    send({ code })
  }

  function accessToken(req: http.IncomingMessage, params: URLSearchParams): Record<string, string> {
    const basic = parseBasic(req.headers.authorization)
    const clientId = basic?.clientId ?? params.get('client_id')
    const clientSecret = basic?.clientSecret ?? params.get('client_secret')
    const fail = (error: TokenError) => ({ error, error_description: tokenErrors[error], error_uri: tokenErrorUri(error) })
    if (clientId !== client.clientId || clientSecret === null || !same(clientSecret, client.clientSecret)) return fail('incorrect_client_credentials')

    const codeParam = params.get('code') ?? ''
    const code = codes.get(codeParam)
    codes.delete(codeParam)
    if (!code || code.expiresAt <= Date.now()) return fail('bad_verification_code')
    const redirectUri = params.get('redirect_uri')
    if (redirectUri !== null && redirectUri !== code.redirectUri) return fail('redirect_uri_mismatch')
    if (code.challenge !== undefined) {
      const verifier = params.get('code_verifier')
      if (verifier === null || !same(createHash('sha256').update(verifier).digest('base64url'), code.challenge)) return fail('bad_verification_code')
    }
    const token = `gho_${randomBytes(18).toString('hex')}`
    tokens.set(token, { userId: code.userId, scope: code.scope })
    return { access_token: token, token_type: 'bearer', scope: code.scope.join(',') }
  }

  function api(req: http.IncomingMessage, path: string, res: http.ServerResponse) {
    if (!req.headers['user-agent']) {
      return text(res, 403, 'Request forbidden by administrative rules. Please make sure your request has a User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required).')
    }
    const route = { '/user': 'users/users#get-the-authenticated-user', '/user/emails': 'users/emails#list-email-addresses-for-the-authenticated-user' }[path]
    if (!route) return json(res, 404, { message: 'Not Found', documentation_url: `${DOCS}/rest`, status: '404' })
    const credentials = /^(?:bearer|token)\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1]
    if (credentials === undefined) return json(res, 401, { message: 'Requires authentication', documentation_url: `${DOCS}/rest/${route}`, status: '401' })
    const grant = tokens.get(credentials)
    const user = grant && users.get(grant.userId)
    if (!grant || !user) return json(res, 401, { message: 'Bad credentials', documentation_url: `${DOCS}/rest`, status: '401' })
    if (path === '/user') return json(res, 200, publicProfile(user, url, apiUrl))
    if (!grant.scope.includes('user:email') && !grant.scope.includes('user')) {
      return json(res, 404, { message: 'Not Found', documentation_url: `${DOCS}/rest/${route}`, status: '404' })
    }
    return json(
      res,
      200,
      user.emails.map((e) => ({ email: e.email, primary: e.primary, verified: e.verified, visibility: e.primary ? 'private' : null })),
    )
  }

  const server = http.createServer((req, res) => {
    const target = new URL(req.url ?? '/', url)
    readBody(req)
      .then((body) => {
        if (req.method === 'GET' && target.pathname === '/login/oauth/authorize') return authorize(target.searchParams, res)
        if (req.method === 'POST' && target.pathname === '/login/oauth/access_token') {
          const answer = accessToken(req, tokenParams(target.searchParams, req.headers['content-type'], body))
          // GitHub answers form-encoded unless JSON is asked for; errors included, always with 200.
          if (/application\/json/.test(req.headers.accept ?? '')) return json(res, 200, answer)
          return text(res, 200, new URLSearchParams(answer).toString(), 'application/x-www-form-urlencoded; charset=utf-8')
        }
        if (req.method === 'GET' && target.pathname.startsWith('/api/v3/')) return api(req, target.pathname.slice('/api/v3'.length), res)
        html(res, 404, 'Not Found')
      })
      .catch((error: unknown) => text(res, 500, `GitHub stand-in: ${String(error)}`))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })

  return {
    url,
    apiUrl,
    user(user) {
      users.set(user.id, user)
      current = user.id
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}

function publicProfile(user: GitHubUser, url: string, apiUrl: string) {
  return {
    login: user.login,
    id: user.id,
    node_id: Buffer.from(`04:User${user.id}`).toString('base64'),
    avatar_url: `https://avatars.githubusercontent.com/u/${user.id}?v=4`,
    gravatar_id: '',
    url: `${apiUrl}/users/${user.login}`,
    html_url: `${url}/${user.login}`,
    type: 'User',
    site_admin: false,
    name: user.name ?? null,
    company: null,
    blog: '',
    location: null,
    email: null,
    hireable: null,
    bio: null,
    twitter_username: null,
    public_repos: 0,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: '2020-01-01T00:00:00Z',
    updated_at: '2020-01-01T00:00:00Z',
  }
}

/** GitHub takes the token request's parameters from the query, a form or a JSON body. */
function tokenParams(query: URLSearchParams, contentType: string | undefined, body: string): URLSearchParams {
  const params = new URLSearchParams(query)
  const fromBody = /application\/json/.test(contentType ?? '')
    ? Object.entries(JSON.parse(body || '{}') as Record<string, unknown>).map(([name, value]) => [name, String(value)] as const)
    : new URLSearchParams(body)
  for (const [name, value] of fromBody) params.set(name, value)
  return params
}

// client_secret_basic form-encodes both halves before base64 (RFC 6749 §2.3.1).
function parseBasic(header: string | undefined): { clientId: string; clientSecret: string } | undefined {
  const encoded = /^Basic\s+(\S+)$/i.exec(header ?? '')?.[1]
  if (encoded === undefined) return undefined
  const decoded = Buffer.from(encoded, 'base64').toString()
  const colon = decoded.indexOf(':')
  if (colon < 0) return undefined
  const formDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '))
  return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) }
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (body += chunk))
    req.once('end', () => resolve(body))
    req.once('error', reject)
  })
}

function json(res: http.ServerResponse, status: number, body: unknown) {
  text(res, status, JSON.stringify(body), 'application/json; charset=utf-8')
}

function html(res: http.ServerResponse, status: number, title: string) {
  text(res, status, `<!DOCTYPE html><html><head><title>${title} · GitHub</title></head><body><h1>${title}</h1></body></html>`, 'text/html; charset=utf-8')
}

function text(res: http.ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8') {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) }).end(body)
}
