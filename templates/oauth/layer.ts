// The oauth layer's row of the options table (src/options.ts assembles it): a list, one layer
// per value besides (templates/oauth-<provider>/). Read by the generator only: never copied into an app.
import { defineOption, formatList, list } from '../../src/option-row.js'

export const OAUTH_PROVIDERS = ['github', 'google', 'oidc'] as const
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number]

declare module '../../src/option-row.js' {
  interface LayerAnswers {
    oauth: OAuthProvider[]
  }
}

export default defineOption({
  key: 'oauth',
  flag: '--oauth',
  valueName: '<providers>',
  description: `sign in with (none, or a comma list of ${OAUTH_PROVIDERS.join(', ')})`,
  prompt: 'Sign in with',
  choices: OAUTH_PROVIDERS,
  multiple: true,
  default: () => [],
  contractDefault: 'none',
  parse: list(OAUTH_PROVIDERS),
  format: formatList,
  layer: 'oauth',
  matrix: { tag: 'oauth', custom: OAUTH_PROVIDERS.join(',') },
  readme:
    'the oauth layer (`templates/oauth/`, `openid-client`) and one layer per provider (`templates/oauth-github/`, `oauth-google/`, `oauth-oidc/`: what differs): provider buttons on the login and register pages, `/settings/connections` to link and unlink, accounts made by a provider with a verified e-mail and no password, never linked by e-mail on their own; a comma list of `github`, `google`, `oidc`',
})
