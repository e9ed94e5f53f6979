import type { EnvBasics } from '../../kernel/index.js'

/** A provider's client at the provider, as its `services/providers/<name>-config.ts` reads it from the environment. */
export interface ProviderClientEnv {
  clientId: string
  clientSecret: string
}

type Read = (name: string) => string | undefined
type Fail = (name: string, problem: string) => void

/**
 * `OAUTH_<PROVIDER>_CLIENT_ID` and `_CLIENT_SECRET`: both set turn the provider on, neither
 * leaves it off; one without the other is a mistake start-up names.
 */
export function readClient(read: Read, fail: Fail, provider: string): ProviderClientEnv | null {
  const [idName, secretName] = [`OAUTH_${provider}_CLIENT_ID`, `OAUTH_${provider}_CLIENT_SECRET`]
  const [clientId, clientSecret] = [read(idName), read(secretName)]
  if (!clientId && !clientSecret) return null
  if (!clientId || !clientSecret) {
    fail(clientId ? secretName : idName, `is needed with ${clientId ? idName : secretName} (set both to offer the provider, or neither).`)
    return null
  }
  return { clientId, clientSecret }
}

/**
 * A provider's base URL (an issuer, GitHub's address): https, or http outside production only
 * (a development provider, the tests'); without a query or fragment, and without a trailing slash.
 */
export function readProviderUrl(read: Read, fail: Fail, base: EnvBasics, name: string, fallback: string): string {
  const text = read(name) ?? fallback
  let url: URL | undefined
  try {
    url = new URL(text)
  } catch {
    url = undefined
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search || url.hash) {
    fail(name, `"${text}" is not an http(s) URL such as ${fallback}.`)
    return fallback
  }
  if (url.protocol === 'http:' && base.NODE_ENV === 'production') {
    fail(name, `"${text}" is http: a provider is reached over https in production.`)
    return fallback
  }
  return text.replace(/\/+$/, '')
}
