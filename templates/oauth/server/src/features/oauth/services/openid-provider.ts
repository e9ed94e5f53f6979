import * as client from 'openid-client'
import { oauth } from '../settings.js'
import type { OAuthProviderSetup, ProviderProfile } from './providers/types.js'

/** An OpenID provider's settings, from the environment (features/oauth-<provider>/config.ts). */
export interface OpenIdSettings {
  issuer: string
  clientId: string
  clientSecret: string
}

/**
 * A provider found by discovery at its issuer. openid-client checks the ID token (signature,
 * `iss`, `aud`, `exp`, `nonce`) and the authorization response's `iss`; nothing here reads a
 * token by hand. Discovery is retried on the next sign-in after a failure, not cached.
 */
export function openIdProvider(id: string, name: string, settings: OpenIdSettings): OAuthProviderSetup {
  let discovered: Promise<client.Configuration> | undefined
  return {
    id,
    name,
    openid: true,
    scope: 'openid email profile',
    configuration() {
      discovered ??= client
        .discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, {
          // Refused in production by the variable's check (features/oauth-<provider>/config.ts).
          execute: settings.issuer.startsWith('http:') ? [client.allowInsecureRequests] : [],
          timeout: oauth.timeoutSeconds,
        })
        .catch((error: unknown) => {
          discovered = undefined
          throw error
        })
      return discovered
    },
    async profile(config, tokens) {
      const claims = tokens.claims()!
      // Providers put the address in the ID token or only in the user info (OpenID Connect allows both).
      const info = claims.email === undefined ? await client.fetchUserInfo(config, tokens.access_token, claims.sub) : claims
      return profileOf(claims.sub, info)
    },
  }
}

function profileOf(subject: string, claims: Record<string, unknown>): ProviderProfile {
  const email = typeof claims.email === 'string' ? claims.email : null
  return {
    subject,
    email,
    // Some providers send the flag as a string.
    emailVerified: email !== null && (claims.email_verified === true || claims.email_verified === 'true'),
    name: typeof claims.name === 'string' ? claims.name : null,
  }
}
