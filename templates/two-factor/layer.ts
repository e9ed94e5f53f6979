// The two-factor layer's row of the options table (src/options.ts assembles it). Read by the
// generator only: never copied into an app.
import { defineOption } from '../../src/option-row.js'

declare module '../../src/option-row.js' {
  interface LayerAnswers {
    twoFactor: boolean
  }
}

export default defineOption({
  key: 'twoFactor',
  flag: '--two-factor',
  description: 'offer two-factor authentication (TOTP)',
  negated: 'no two-factor authentication',
  prompt: 'Offer two-factor authentication (TOTP)?',
  default: () => false,
  contractDefault: 'no',
  layer: 'two-factor',
  matrix: { tag: '2fa' },
  readme:
    'the TOTP two-factor layer (`templates/two-factor/`): enable with a QR code and confirm with a code, disable, 8 recovery codes (regenerable), a challenge at login after the password, lockout after repeated wrong codes, `ENCRYPTION_KEY` for the secrets at rest',
})
