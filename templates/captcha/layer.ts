// The CAPTCHA layer's row of the options table (src/options.ts assembles it): a single choice whose
// every answer but `none` adds templates/captcha/, which holds the three verifiers; the answer only
// picks the app's default CAPTCHA_PROVIDER. Read by the generator only: never copied into an app.
import { choice, defineOption } from '../../src/option-row.js'

export const CAPTCHA_CHOICES = ['none', 'cap', 'turnstile', 'hcaptcha'] as const
export type CaptchaChoice = (typeof CAPTCHA_CHOICES)[number]

declare module '../../src/option-row.js' {
  interface LayerAnswers {
    captcha: CaptchaChoice
  }
}

export default defineOption({
  key: 'captcha',
  flag: '--captcha',
  valueName: `<${CAPTCHA_CHOICES.join('|')}>`,
  description: 'protect sign-up and sign-in with a CAPTCHA (none; cap: proof-of-work, no third party; turnstile; hcaptcha)',
  prompt: 'Protect sign-up and sign-in with a CAPTCHA',
  choices: CAPTCHA_CHOICES,
  default: () => 'none',
  contractDefault: 'none',
  parse: choice(CAPTCHA_CHOICES),
  layer: 'captcha',
  matrix: { tag: 'captcha', custom: 'cap' },
  readme:
    "the CAPTCHA layer (`templates/captcha/`): a challenge on registration, the password reset request and, after 3 failures for an address or an IP, on login; `cap` is Cap's proof-of-work (`@cap.js/server` and its widget, challenges and tokens single-use in Redis or the database), `turnstile` and `hcaptcha` verify at the provider's `siteverify` (failing closed with a 503); every app with the layer carries all three, the answer sets `CAPTCHA_PROVIDER` in `.env`; `none`: no layer",
})
