import type { FeatureConfig } from '../../kernel/index.js'

const minute = 60_000

export const PROVIDERS = ['cap', 'turnstile', 'hcaptcha', 'off'] as const
export type Provider = (typeof PROVIDERS)[number]

const SITEVERIFY: Record<'turnstile' | 'hcaptcha', string> = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
}

/** A whole number from `low` to `high`, or `fallback` when unset. */
function count(name: string, fallback: number, low: number, high: number) {
  return (read: (name: string) => string | undefined, fail: (name: string, problem: string) => void): number => {
    const text = read(name)
    if (text === undefined) return fallback
    const value = Number(text)
    if (Number.isInteger(value) && value >= low && value <= high) return value
    fail(name, `"${text}" is not a whole number from ${low} to ${high}.`)
    return fallback
  }
}

/** A key of Turnstile's or hCaptcha's, required when one of them is the provider. */
function providerKey(name: string) {
  return (read: (name: string) => string | undefined, fail: (name: string, problem: string) => void): string => {
    const value = read(name) ?? ''
    const provider = read('CAPTCHA_PROVIDER')?.toLowerCase()
    if (!value && (provider === 'turnstile' || provider === 'hcaptcha')) fail(name, `${provider} needs it: copy it from the provider's dashboard.`)
    return value
  }
}

/** The layer's settings, as its object names them: read typed through `envOf` and `rateLimitsOf` with it. */
export const config = {
  rateLimits: {
    /** Cap challenges made and redeemed per IP: each is a row (or a Redis key) anyone may ask for. */
    captchaPerIp: { limit: 30, windowMs: minute },
    /** Failed logins of an address, or of an IP, after which login asks for a CAPTCHA (the window is how long they count). */
    captchaLoginFailures: { limit: 3, windowMs: 15 * minute },
  },
  env: {
    /**
     * Who checks the answers. Unset: `cap`, but in tests (NODE_ENV=test), where base's tests sign
     * up and in without one: `off`, and the layer's own tests name the provider they test.
     */
    CAPTCHA_PROVIDER(read, fail, base): Provider {
      const text = read('CAPTCHA_PROVIDER')?.toLowerCase() ?? (base.NODE_ENV === 'test' ? 'off' : 'cap')
      const provider = PROVIDERS.find((known) => known === text)
      if (provider) return provider
      fail('CAPTCHA_PROVIDER', `"${text}" is not one of ${PROVIDERS.join(', ')}.`)
      return 'cap'
    },
    /** Turnstile's or hCaptcha's secret key (their dashboards); the widget's site key is CAPTCHA_SITE_KEY. */
    CAPTCHA_SECRET: providerKey('CAPTCHA_SECRET'),
    CAPTCHA_SITE_KEY: providerKey('CAPTCHA_SITE_KEY'),
    /** Where answers are verified: the provider's siteverify unless set (tests point it at a stand-in). */
    CAPTCHA_VERIFY_URL(read, fail): string | undefined {
      const text = read('CAPTCHA_VERIFY_URL')
      if (text === undefined) return undefined
      if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) fail('CAPTCHA_VERIFY_URL', `"${text}" is not an http(s) URL.`)
      return text
    },
    /** Cap's difficulty: hex digits each solution's hash must start with (4: about 65 000 hashes each). */
    CAPTCHA_DIFFICULTY: count('CAPTCHA_DIFFICULTY', 4, 1, 8),
    /** Cap's number of puzzles per challenge: the work is their sum, the variance of its time shrinks with their number. */
    CAPTCHA_CHALLENGE_COUNT: count('CAPTCHA_CHALLENGE_COUNT', 50, 1, 500),
  },
} as const satisfies FeatureConfig

/** Where a provider's answers are verified. */
export const siteverifyUrl = (provider: 'turnstile' | 'hcaptcha', configured: string | undefined) => configured ?? SITEVERIFY[provider]
