// The API keys layer's row of the options table (src/options.ts assembles it). Read by the
// generator only: never copied into an app.
import { defineOption } from '../../src/option-row.js'

declare module '../../src/option-row.js' {
  interface LayerAnswers {
    apiKeys: boolean
  }
}

export default defineOption({
  key: 'apiKeys',
  flag: '--api-keys',
  description: 'API keys: personal keys with scopes for scripts and servers (Authorization: Bearer)',
  negated: 'no API keys: only the browser session signs requests in',
  prompt: 'Offer API keys?',
  default: () => false,
  contractDefault: 'no',
  layer: 'api-keys',
  matrix: { tag: 'keys' },
  readme:
    "the API keys layer (`templates/api-keys/`): personal keys (`cca_<id>_<secret>`, shown once, stored hashed) with `read`, `write` and `admin` scopes and an optional expiry, made at Settings → API keys (after confirming it's you), sent as `Authorization: Bearer` by scripts and servers; revoked with the account's sessions; their own rate limit (`RATE_LIMIT_API_KEY`); with `--teams`, team keys made by a team's owners and admins, held to that team (`api-keys/+teams/`)",
})
