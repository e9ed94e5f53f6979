import type { Env } from '../../../kernel/index.js'

/** Where the provider is mounted in the app, and the last segment of its issuer. */
export const MOUNT = '/oauth2'

/** The issuer: `{BASE_URL}/oauth2`. */
export const issuerOf = (env: Pick<Env, 'BASE_URL'>): string => `${env.BASE_URL}${MOUNT}`

/** The app's API as a resource server (RFC 8707): what its access tokens name as audience. */
export const apiResourceOf = (env: Pick<Env, 'BASE_URL'>): string => `${env.BASE_URL}/api`

/** The protected-resource metadata of the API (RFC 9728), at the origin's well-known path. */
export const resourceMetadataUrlOf = (env: Pick<Env, 'BASE_URL'>): string => `${env.BASE_URL}/.well-known/oauth-protected-resource`

/** The scopes of the API: what a token may do there, as an API key's (`read` GET routes, `write` the others). */
export const API_SCOPES = ['read', 'write'] as const

/** The OpenID scopes, granted by the person for the claims userinfo and the ID token carry. */
export const OPENID_SCOPES = ['openid', 'offline_access', 'email', 'profile'] as const

/** The consent page of the client (the Vue app's), where the provider sends a person. */
export const consentPageOf = (env: Pick<Env, 'BASE_URL'>, uid: string): string => `${env.BASE_URL}${MOUNT}/authorize?uid=${encodeURIComponent(uid)}`

/** The app's page where a person types a device's code (RFC 8628's `verification_uri`): the Vue app's. */
export const devicePageOf = (env: Pick<Env, 'BASE_URL'>): string => `${env.BASE_URL}/device`

/** RFC 8414's metadata at the origin: for the issuer's path (`/oauth2`), and at the origin's own path. */
export const AUTHORIZATION_SERVER_METADATA = ['/.well-known/oauth-authorization-server', `/.well-known/oauth-authorization-server${MOUNT}`] as const

/** RFC 9728's metadata of the API at the origin: for the resource's path (`/api`), and without it as MCP clients first ask. */
export const PROTECTED_RESOURCE_METADATA = ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/api'] as const
