import type { Env } from '../../../../kernel/index.js'
import { openIdProvider } from '../openid-provider.js'

/** Google is OpenID Connect: its ID token carries the address and whether Google verified it. */
export const googleProvider = (env: Env) => (env.OAUTH_GOOGLE ? openIdProvider('google', 'Google', env.OAUTH_GOOGLE) : null)
