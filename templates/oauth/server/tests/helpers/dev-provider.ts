// A development OpenID provider to try social sign-in locally (README, "Social sign-in"): the
// tests' provider, where any login and password sign in. `npm run oauth:dev-provider`.
import { startOidcProvider } from './oidc-provider.js'

const base = (process.env.BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '')
const port = Number(process.env.OIDC_DEV_PORT ?? 4000)
const client = { clientId: 'dev-client', clientSecret: 'dev-client-secret' }
const provider = await startOidcProvider({
  port,
  clients: [{ ...client, redirectUris: ['oidc', 'google'].map((id) => `${base}/api/auth/oauth/${id}/callback`) }],
})
console.log(`A development OpenID provider is at ${provider.issuer}; any login and password sign in. In .env:

OAUTH_OIDC_ISSUER=${provider.issuer}
OAUTH_OIDC_CLIENT_ID=${client.clientId}
OAUTH_OIDC_CLIENT_SECRET=${client.clientSecret}

Ctrl-C stops it.`)
