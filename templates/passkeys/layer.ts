// The passkeys layer's row of the options table (src/options.ts assembles it). Read by the
// generator only: never copied into an app.
import { defineOption } from '../../src/option-row.js'

declare module '../../src/option-row.js' {
  interface LayerAnswers {
    passkeys: boolean
  }
}

export default defineOption({
  key: 'passkeys',
  flag: '--passkeys',
  description: 'offer passkeys (WebAuthn)',
  negated: 'no passkeys',
  prompt: 'Offer passkeys (WebAuthn)?',
  default: () => false,
  contractDefault: 'no',
  layer: 'passkeys',
  matrix: { tag: 'passkeys' },
  readme:
    'the passkeys layer (`templates/passkeys/`, `@simplewebauthn/server` and `/browser`): add a passkey behind the password, rename and remove them in settings, "Sign in with a passkey" and autofill on the login page (no second factor asked), `/.well-known/passkey-endpoints`, `RP_ID`',
})
