// Written by `npm run variants:cover -- --write-release` (scripts/variant-cover.ts); checked by
// test/release-cover.test.ts. The variants `npm run test:release` runs: every triple of values
// of any three dimensions meets in one; CI's set (src/variant-cover.ts) first, in its order.
export const RELEASE_COVER: readonly string[] = [
  'sqlite',
  'sqlite-custom-verify-2fa-passkeys-oauth-teams-redis',
  'mysql-oauth-teams-redis',
  'mysql-custom-verify-2fa-passkeys-keys',
  'postgres-2fa-passkeys-keys-redis',
  'postgres-custom-verify-oauth-teams',
  'sqlite-verify-passkeys-teams-keys',
  'sqlite-custom-2fa-oauth-keys',
  'postgres-custom-verify-keys-redis',
  'mysql-verify-2fa-passkeys-oauth',
  'mysql-custom-passkeys-teams-redis',
  'postgres-2fa-teams',
  'mysql-verify-2fa-oauth-teams-keys-redis',
  'postgres-passkeys-oauth-keys',
  'postgres-custom-verify-2fa-passkeys-oauth-redis',
  'sqlite-custom-teams-keys-redis',
  'mysql-keys',
  'sqlite-verify-2fa-redis',
  'sqlite-passkeys-oauth',
  'mysql-custom-2fa-oauth-redis',
  'postgres-verify-passkeys-teams-keys-redis',
  'mysql-verify-teams',
  'postgres-custom',
]
