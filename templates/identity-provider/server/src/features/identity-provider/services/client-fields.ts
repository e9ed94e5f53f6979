// The request fields of the admins' client routes.
import { z } from 'zod'
import { msg, nameField } from '../../../kernel/index.js'
import { API_SCOPES, OPENID_SCOPES } from './urls.js'

/** RFC 8628's grant: a device without a browser, the person signing in on another. */
export const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code'
export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials', DEVICE_CODE] as const
export const CLIENT_SCOPES = [...OPENID_SCOPES, ...API_SCOPES] as const
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * Where the provider may send a person back, compared exactly: https, http on a loopback address
 * (a CLI's own listener, RFC 8252), or a native app's own scheme (`com.example.app:/callback`);
 * never a fragment, and never a `javascript:` or `data:` address.
 */
const redirectUri = z
  .string({ error: 'oauthProvider.redirectUri' })
  .max(2000, 'oauthProvider.redirectUri')
  .refine((value) => {
    const url = URL.parse(value)
    if (!url || url.hash || value.includes('#')) return false
    if (url.protocol === 'https:') return true
    if (url.protocol === 'http:') return LOOPBACK.has(url.hostname)
    return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol)
  }, 'oauthProvider.redirectUri')

const list = <T extends z.ZodType>(item: T, field: string) => z.array(item, { error: (issue) => (issue.input === undefined ? msg('validation.required', { field }) : 'oauthProvider.list') })

const clientFields = {
  name: nameField,
  redirect_uris: list(redirectUri, 'redirect_uris').max(10, 'oauthProvider.tooManyRedirectUris').default([]),
  grant_types: list(z.enum(GRANT_TYPES, { error: 'oauthProvider.grantType' }), 'grant_types').min(1, 'oauthProvider.grantTypesRequired'),
  scopes: list(z.enum(CLIENT_SCOPES, { error: 'oauthProvider.scope' }), 'scopes').min(1, 'oauthProvider.scopesRequired'),
}

type Rules = { confidential: boolean; redirect_uris: string[]; grant_types: readonly string[] }

/** What the fields say together: a code needs somewhere to go, a refresh a person's grant (a code or a device's), and only a secret's holder acts as itself. */
function checkTogether(value: Rules, context: z.RefinementCtx) {
  const grants = new Set(value.grant_types)
  if (grants.has('authorization_code') && value.redirect_uris.length === 0) context.addIssue({ code: 'custom', path: ['redirect_uris'], message: 'oauthProvider.redirectUrisRequired' })
  if (grants.has('refresh_token') && !grants.has('authorization_code') && !grants.has(DEVICE_CODE)) context.addIssue({ code: 'custom', path: ['grant_types'], message: 'oauthProvider.refreshNeedsCode' })
  if (grants.has('client_credentials') && !value.confidential) context.addIssue({ code: 'custom', path: ['grant_types'], message: 'oauthProvider.credentialsNeedSecret' })
}

export const createClientSchema = z
  .object({ ...clientFields, type: z.enum(['public', 'confidential'], { error: 'oauthProvider.type' }) })
  .superRefine((value, context) => checkTogether({ ...value, confidential: value.type === 'confidential' }, context))

/** The type stays what it was made: a public client turned confidential would keep codes meant for a secretless one. */
export const updateClientSchema = z.object(clientFields)
export const checkUpdate = checkTogether
