// Written by `npm run variants:cover -- --write-ci` (scripts/variant-cover.ts); checked by
// test/variant-cover.test.ts. The variants whose apps `npm test` (CI) installs, tests, builds and
// starts: every value of every option in one of them, all-defaults first, taken from the release
// set. The pairwise set (src/variant-cover.ts) is rendered and snapshotted by the unit tests in
// CI, and run as apps by `test:variants -- --pairwise` and the release gate.
export const CI_COVER: readonly string[] = [
  'sqlite',
  'mysql-custom-passkeys-oauth-teams-sso-keys-pwless-captcha-redis',
  'postgres-verify-2fa-teams-provider-pwless-captcha',
]
