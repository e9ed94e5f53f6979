// The passwordless layer's row of the options table (src/options.ts assembles it). Read by the
// generator only: never copied into an app.
import { defineOption } from '../../src/option-row.js'

declare module '../../src/option-row.js' {
  interface LayerAnswers {
    passwordless: boolean
  }
}

export default defineOption({
  key: 'passwordless',
  flag: '--passwordless',
  description: 'offer sign-in by a link or a 6-digit code sent by e-mail',
  negated: 'no sign-in by e-mail: only the password and the other layers sign people in',
  prompt: 'Offer sign-in by e-mailed link or code?',
  default: () => false,
  contractDefault: 'no',
  layer: 'passwordless',
  matrix: { tag: 'pwless' },
  readme:
    'the passwordless layer (`templates/passwordless/`): "E-mail me a sign-in link" on the login page; one mail holds a link and a 6-digit code, single-use, valid 10 minutes, stored hashed, voided by a newer one and by every revoking event; the link signs in the browser that asked (also when opened on another device, after asking there); two-factor still applies; a way in and a way to confirm it\'s you; with `PASSWORDLESS_SIGN_UP=true` an unknown address gets an account on first use',
})
