// The oauth layer's English messages, merged with base's (kernel/i18n/translate.ts).
export const en = {
  oauth: {
    remember: 'The remember field must be 1 or 0.',
    lastWayIn: 'This is the only way to sign in to your account: set a password (with "Forgot password?") or add another way first.',
    redirect: 'The redirect must be a path on this site, such as /dashboard.',
  },
  oauthNotices: {
    linked: {
      subject: 'A sign-in provider was linked to your account',
      summary: 'A sign-in provider was linked to your account: signing in there now signs you in here.',
    },
  },
}
