import * as client from 'openid-client'
import { z } from 'zod'
import { envOf, type Env } from '../../../../kernel/index.js'
import { config as githubConfig } from './github-config.js'
import { oauth } from '../../settings.js'
import type { OAuthProviderSetup } from './types.js'

const githubUser = z.object({ id: z.number().int(), login: z.string(), name: z.string().nullish() })
const githubEmails = z.array(z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }))

/**
 * GitHub is OAuth 2.0 without OpenID Connect: no ID token, so who signed in comes from its REST
 * API with the access token: the numeric id (never the login, which can be renamed and then
 * taken by someone else) and the primary address, which counts only when GitHub verified it.
 */
export function githubProvider(env: Env): OAuthProviderSetup | null {
  const settings = envOf(githubConfig, env).OAUTH_GITHUB
  if (!settings) return null
  let config: client.Configuration | undefined

  async function api<T>(path: string, token: string, schema: z.ZodType<T>): Promise<T> {
    const res = await fetch(`${settings!.apiUrl}${path}`, {
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/vnd.github+json', 'User-Agent': 'cookie-auth-app' },
      signal: AbortSignal.timeout(oauth.timeoutSeconds * 1000),
    })
    if (!res.ok) throw new Error(`GitHub ${path}: ${res.status}`)
    return schema.parse(await res.json())
  }

  return {
    id: 'github',
    name: 'GitHub',
    openid: false,
    scope: 'read:user user:email',
    async configuration() {
      if (!config) {
        const metadata = {
          issuer: settings.url,
          authorization_endpoint: `${settings.url}/login/oauth/authorize`,
          token_endpoint: `${settings.url}/login/oauth/access_token`,
        }
        config = new client.Configuration(metadata, settings.clientId, settings.clientSecret)
        // Refused in production by the variable's check (github-config.ts).
        if (settings.url.startsWith('http:')) client.allowInsecureRequests(config)
        config.timeout = oauth.timeoutSeconds
      }
      return config
    },
    async profile(_config, tokens) {
      const [user, emails] = await Promise.all([
        api('/user', tokens.access_token, githubUser),
        api('/user/emails', tokens.access_token, githubEmails),
      ])
      const primary = emails.find((email) => email.primary)
      return { subject: String(user.id), email: primary?.email ?? null, emailVerified: primary?.verified === true, name: user.name || user.login }
    },
  }
}
