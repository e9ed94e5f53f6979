// The other flows' browser tests sign up and in without a CAPTCHA; e2e/captcha.test.ts meets it.
export const env = { CAPTCHA_PROVIDER: 'off' }
