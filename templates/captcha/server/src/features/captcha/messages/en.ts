// The CAPTCHA layer's English messages, merged with base's (kernel/i18n/translate.ts).
export const en = {
  fields: {
    captcha: 'CAPTCHA',
  },
  captcha: {
    required: 'Please confirm that you are a person, then send the form again.',
    failed: 'The check did not pass or has expired. Please try it again.',
    wrongSolution: 'That solution is wrong or its challenge has expired.',
    unavailable: 'The CAPTCHA service cannot be reached right now, so this cannot be checked. Please try again in a few minutes.',
  },
}
