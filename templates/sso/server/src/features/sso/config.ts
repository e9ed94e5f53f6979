import { isIP } from 'node:net'
import type { FeatureConfig } from '../../kernel/index.js'

const minute = 60_000

/** `1.1.1.1`, `127.0.0.1:5353` or `[::1]:5353`: what `dns.Resolver#setServers` takes, checked here so start-up says which is wrong. */
function dnsServer(text: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text)
  const [host, port] = bracketed ? [bracketed[1]!, bracketed[2]] : text.includes('.') ? text.split(':') : [text, undefined]
  return isIP(host ?? '') !== 0 && (port === undefined || (Number(port) > 0 && Number(port) < 65536))
}

/** The layer's settings, as its object names them: read typed through `envOf` and `rateLimitsOf` with it. */
export const config = {
  /** ENCRYPTION_KEY seals an OpenID connection's client secret at rest (kernel/security/encryption.ts, its own purpose). */
  secrets: ['ENCRYPTION_KEY'],
  cookies: {
    /** The state, nonce and PKCE verifier of an OpenID sign-in under way (services/oidc-flows.ts), binding its answer to this browser. */
    ssoOidc: 'sso_oidc',
  },
  env: {
    /**
     * The DNS server that checks a domain's TXT record (or a comma list of them), each an address
     * with a port if not 53; unset, the system's resolvers. Tests point it at their own stand-in.
     */
    SSO_DNS_SERVER(read, fail): string[] | null {
      const text = read('SSO_DNS_SERVER')
      if (!text) return null
      const servers = text.split(',').map((entry) => entry.trim()).filter(Boolean)
      const wrong = servers.find((server) => !dnsServer(server))
      if (wrong !== undefined) fail('SSO_DNS_SERVER', `"${wrong}" is not an IP address with an optional port, such as 1.1.1.1 or 127.0.0.1:5353.`)
      return servers
    },
  },
  rateLimits: {
    /** Domain checks per user: each sends DNS queries on the app's behalf. */
    ssoDomainChecksPerUser: { limit: 20, windowMs: minute },
    /** "Continue with SSO" per IP: each remembers a request id until the IdP answers. */
    ssoStartPerIp: { limit: 30, windowMs: minute },
    /** IdP answers per IP: each costs signature checks. */
    ssoAnswerPerIp: { limit: 30, windowMs: minute },
    /** SCIM requests per team token: an IdP's sync sends bursts, never a flood. */
    ssoScimPerToken: { limit: 600, windowMs: minute },
  },
} as const satisfies FeatureConfig
