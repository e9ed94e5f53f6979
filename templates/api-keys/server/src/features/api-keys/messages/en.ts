// The API-key layer's English messages, merged with base's (i18n/translate.ts).
export const en = {
  fields: {
    scopes: 'scopes',
  },
  apiKeys: {
    scopesList: 'The scopes must be a list of read, write and admin.',
    scopeUnknown: 'A scope is read, write or admin.',
    scopesRequired: 'Choose at least one scope.',
    adminOnly: 'Only administrators can give a key the admin scope.',
    expiresIn: 'The expiry must be a duration such as 900, 15m or 30d (at most 3650d), or none.',
  },
  apiKeyNotices: {
    created: {
      subject: 'An API key was made for your account',
      summary: 'An API key was made for your account: whoever holds it can use the API as you, within its scopes. If this was not you, revoke it under Settings → API keys and change your password.',
    },
  },
}
