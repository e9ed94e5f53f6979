// Written by `npm run variants:cover -- --write` (scripts/variant-cover.ts); checked by
// test/variant-cover.test.ts. The variants `npm test` runs, all-defaults first.
export const VARIANT_COVER: readonly string[] = [
  'sqlite',
  'sqlite-custom-verify-2fa-passkeys-oauth-teams-redis',
  'mysql-oauth-teams-redis',
  'mysql-custom-verify-2fa-passkeys-keys',
  'postgres-2fa-passkeys-keys-redis',
  'postgres-custom-verify-oauth-teams',
  'sqlite-verify-passkeys-teams-keys',
  'sqlite-custom-2fa-oauth-keys',
  'sqlite-teams-sso',
  'mysql-custom-verify-2fa-passkeys-oauth-teams-sso-keys-redis',
  'postgres-teams-sso',
]
