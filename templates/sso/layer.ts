// The sso layer's row of the options table (src/options.ts assembles it). Read by the
// generator only: never copied into an app.
import { defineOption } from '../../src/option-row.js'

declare module '../../src/option-row.js' {
  interface LayerAnswers {
    sso: boolean
  }
}

export default defineOption({
  key: 'sso',
  flag: '--sso',
  description: "enterprise SSO for teams: a team's own SAML or OIDC connection and verified domains (needs --teams)",
  negated: 'no enterprise SSO: team members sign in as everyone else does',
  prompt: 'Offer enterprise SSO for teams (SAML, OIDC, SCIM)? (needs --teams)',
  default: () => false,
  contractDefault: 'no',
  needs: ['teams'],
  layer: 'sso',
  matrix: { tag: 'sso' },
  readme:
    "the SSO layer (`templates/sso/`, needs `--teams`): a team owner claims the company's domains (a DNS TXT record, checked with `node:dns`) and connects the team's identity provider; \"Continue with SSO\" on the login page sends an address of a verified domain there",
})
