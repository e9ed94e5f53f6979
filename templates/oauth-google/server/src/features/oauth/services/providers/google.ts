import { envOf, type Env } from '../../../../kernel/index.js'
import { config as googleConfig } from './google-config.js'
import { openIdProvider } from '../openid-provider.js'

/** Google is OpenID Connect: its ID token carries the address and whether Google verified it. */
export function googleProvider(env: Env) {
  const settings = envOf(googleConfig, env).OAUTH_GOOGLE
  return settings ? openIdProvider('google', 'Google', settings) : null
}
