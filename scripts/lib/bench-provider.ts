/**
 * bench:app's credentials for the OAuth provider layer: a confidential client for the client
 * credentials grant (wrk posts its token request as is), and a person's access token for the
 * API, got through the device flow as a browser gets it (the app's session, the provider's form,
 * the consent API), so that `/api/auth/me` can be measured with it beside the access cookie.
 */

/** The token endpoint's limit, lifted: the row measures issuing tokens, not the 429. */
export const BENCH_PROVIDER_ENV = { RATE_LIMIT_TOKEN_ENDPOINT_PER_IP: '999999999', RATE_LIMIT_DEVICE_CODE_PER_IP: '999999999' }

const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code'
const FORM = 'application/x-www-form-urlencoded'

export interface ProviderCredentials {
  /** The client credentials grant's request: its Authorization header and body. */
  clientCredentials: { authorization: string; body: string }
  /** A person's access token for the API (RFC 8707 resource `{base}/api`, scope read). */
  personToken: string
}

/** A cookie jar over fetch, redirects by hand: the app's cookies and the provider's. */
function browser(base: string, cookies: Record<string, string>) {
  return async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    headers.set('cookie', Object.entries(cookies).map(([name, value]) => `${name}=${value}`).join('; '))
    const res = await fetch(new URL(path, base), { ...init, headers, redirect: 'manual' })
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const at = pair.indexOf('=')
      cookies[pair.slice(0, at)] = pair.slice(at + 1)
    }
    return res
  }
}

async function json<T>(res: Response, what: string, status = 200): Promise<T> {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

export async function providerCredentials(base: string, adminCookies: Record<string, string>): Promise<ProviderCredentials> {
  const go = browser(base, { ...adminCookies })
  const register = async (body: object) =>
    (await json<{ client: { client_id: string }; client_secret?: string }>(
      await go('/api/admin/oauth-clients', { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify(body) }),
      'registering a client',
      201,
    ))
  const service = await register({ name: 'Bench service', type: 'confidential', grant_types: ['client_credentials'], scopes: ['read'] })
  const cli = await register({ name: 'Bench CLI', type: 'public', grant_types: [DEVICE_CODE], scopes: ['openid', 'read'] })

  const resource = `${base}/api`
  const device = await json<{ device_code: string; user_code: string }>(
    await fetch(`${base}/oauth2/device/auth`, { method: 'POST', headers: { 'content-type': FORM }, body: new URLSearchParams({ client_id: cli.client.client_id, scope: 'openid read', resource }) }),
    'device authorization',
  )
  const xsrfOf = async (res: Response) => /name="xsrf" value="([^"]+)"/.exec(await res.text())![1]!
  const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': FORM }, body: new URLSearchParams(fields) })
  const typed = await go('/oauth2/device', form({ xsrf: await xsrfOf(await go(`/oauth2/device?user_code=${device.user_code}`)), user_code: device.user_code }))
  const confirmed = await go('/oauth2/device', form({ xsrf: await xsrfOf(typed), user_code: device.user_code, confirm: 'yes' }))
  const uid = new URL(confirmed.headers.get('location') ?? '', base).searchParams.get('uid')
  const consent = await json<{ redirect: string }>(
    await go(`/api/oauth2/interaction/${uid}/consent`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: '{}' }),
    'consent',
  )
  for (let next: string | null = consent.redirect, hops = 0; next && hops < 5; hops++) next = (await go(next)).headers.get('location')
  const tokens = await json<{ access_token: string }>(
    await fetch(`${base}/oauth2/token`, { method: 'POST', headers: { 'content-type': FORM }, body: new URLSearchParams({ grant_type: DEVICE_CODE, device_code: device.device_code, client_id: cli.client.client_id, resource }) }),
    'the device code redeemed',
  )
  return {
    clientCredentials: {
      authorization: `Basic ${Buffer.from(`${service.client.client_id}:${service.client_secret}`).toString('base64')}`,
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'read', resource }).toString(),
    },
    personToken: tokens.access_token,
  }
}
