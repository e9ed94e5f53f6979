// The pairwise cover. The first eight are the eight of 0.2.0's rounds, to which SSO, passwordless
// sign-in, the CAPTCHA and the OAuth provider were added by a search that kept each one's
// database, options and Redis (.bench is not kept: any set that test/variant-cover.test.ts
// accepts will do); the last two cover teams-sso and teams on MySQL and PostgreSQL, which the
// eight cannot. `npm run variants:cover` proposes a set from scratch. The variants `npm test`
// runs, all-defaults first.
export const VARIANT_COVER: readonly string[] = [
  'sqlite',
  'sqlite-custom-verify-2fa-passkeys-oauth-teams-captcha-redis',
  'mysql-oauth-teams-provider-pwless-redis',
  'mysql-custom-verify-2fa-passkeys-keys-pwless',
  'postgres-2fa-passkeys-keys-pwless-redis',
  'postgres-custom-verify-oauth-teams-sso-pwless',
  'sqlite-verify-passkeys-teams-sso-keys-provider-captcha',
  'sqlite-custom-2fa-oauth-keys-provider-pwless-captcha',
  'mysql-2fa-teams-sso-keys-provider-captcha-redis',
  'postgres-custom-passkeys-teams-keys-provider-captcha',
]
