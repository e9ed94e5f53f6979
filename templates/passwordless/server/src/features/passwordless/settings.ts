// E-mail sign-in settings.
export const emailSignIn = {
  /** How long a mailed link and code work, and the asking browser's binding cookie lives. */
  lifeSeconds: 10 * 60,
  codeDigits: 6,
  /** Wrong codes one mail's code takes before it dies (its link still works: it cannot be guessed). */
  codeAttempts: 5,
  /** How long a code mailed to confirm it's you (step-up) works. */
  confirmLifeSeconds: 10 * 60,
} as const
