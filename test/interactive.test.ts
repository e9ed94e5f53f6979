import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { listTree, tempDir } from './helpers/cli.js'
import { Terminal } from './helpers/terminal.js'

let dir: ReturnType<typeof tempDir>
let terminal: Terminal | undefined
beforeEach(() => {
  dir = tempDir()
})
afterEach(() => {
  terminal?.close()
  dir.remove()
})

function erase(count: number): string[] {
  return Array.from({ length: count }, () => 'BSpace')
}

it('asks every question in order, re-asks a bad answer, and generates what was answered', async () => {
  terminal = new Terminal(dir.path, [])
  const t = terminal
  await t.answer('Project name', [...erase(15), 'shop', 'Enter'])
  await t.answer('Database', ['Down', 'Enter'])
  await t.answer('Access token life', [...erase(3), '10m', 'Enter'])
  await t.answer('Refresh token life', [...erase(2), '5m', 'Enter'])
  await t.waitFor('must be longer than the access token life (10m)')
  t.keys([...erase(2), '2h', 'Enter'])
  await t.answer('"remember me"', [...erase(3), '14d', 'Enter'])
  await t.answer('Require a verified e-mail before login?', ['y'])
  await t.answer('Cookie name prefix', [...erase(3), '9x', 'Enter'])
  await t.waitFor('use a letter followed by up to 31 letters')
  t.keys([...erase(2), 'acme', 'Enter'])
  await t.answer('Offer two-factor authentication (TOTP)?', ['y'])
  await t.answer('Offer passkeys (WebAuthn)?', ['y'])
  // A multi-select: space toggles the highlighted provider (github first), down moves on.
  await t.answer('Sign in with', ['Space', 'Down', 'Down', 'Space', 'Enter'])
  await t.answer('Add teams (shared workspaces with roles and invitations)?', ['y'])
  await t.answer('Offer API keys?', ['y'])
  await t.answer('Be an OAuth 2.1 / OpenID provider (CLIs, apps, agents)?', ['n'])
  await t.answer('Offer enterprise SSO for teams (SAML, OIDC, SCIM)? (needs --teams)', ['y'])
  await t.answer('Offer sign-in by e-mailed link or code?', ['y'])
  // A single choice, none first: down once is cap.
  await t.answer('Protect sign-up and sign-in with a CAPTCHA', ['Down', 'Enter'])
  await t.answer('Install dependencies now?', ['n'])
  await t.answer('Initialise a git repository?', ['n'])
  expect(await t.exitCode()).toBe(0)
  expect(t.screen()).toContain(
    'npx create-cookie-auth-app shop --db mysql --access-ttl 10m --refresh-ttl 2h --remember-ttl 14d --email-verification --cookie-name acme --two-factor --passkeys --oauth github,oidc --teams --api-keys --no-oauth-provider --sso --passwordless --captcha cap --pm npm --no-install --no-git --yes',
  )
  expect(readFileSync(join(dir.path, 'shop', '.env'), 'utf8')).toContain('DATABASE_URL=mysql://root@127.0.0.1:3306/shop\n')
})

it('Ctrl-C at a prompt exits 130 with "Cancelled" and leaves nothing behind', async () => {
  terminal = new Terminal(dir.path, ['app'])
  await terminal.answer('Database', ['Enter'])
  await terminal.answer('Access token life', ['C-c'])
  expect(await terminal.exitCode()).toBe(130)
  expect(terminal.screen()).toContain('Cancelled')
  rmSync(join(dir.path, '.exit-code'))
  expect(listTree(dir.path)).toEqual([])
})

it('asks before replacing a non-empty folder, and No leaves it untouched', async () => {
  mkdirSync(join(dir.path, 'busy'))
  writeFileSync(join(dir.path, 'busy', 'notes.txt'), 'mine')
  terminal = new Terminal(dir.path, ['busy'])
  await terminal.answer('"busy" is not empty. Replace its contents (.git is kept)?', ['Enter'])
  expect(await terminal.exitCode()).toBe(1)
  expect(listTree(join(dir.path, 'busy'))).toEqual(['notes.txt'])
  expect(existsSync(join(dir.path, 'busy', 'package.json'))).toBe(false)
})

it('flags given on the command line are not asked again', async () => {
  terminal = new Terminal(dir.path, ['app', '--db', 'sqlite', '--access-ttl', '5m', '--refresh-ttl', '1h', '--remember-ttl', '1d', '--no-email-verification', '--cookie-name', 'app', '--no-two-factor', '--no-passkeys', '--oauth', 'none', '--no-teams', '--no-api-keys', '--no-oauth-provider', '--no-sso', '--no-passwordless', '--captcha', 'none', '--no-install'])
  await terminal.answer('Initialise a git repository?', ['n'])
  expect(await terminal.exitCode()).toBe(0)
  expect(terminal.screen()).not.toContain('Database')
})

it('does not ask for a row whose needed answer was no, and refuses its flag once the prompt said no', async () => {
  terminal = new Terminal(dir.path, ['app', '--db', 'sqlite', '--access-ttl', '5m', '--refresh-ttl', '1h', '--remember-ttl', '1d', '--no-email-verification', '--cookie-name', 'app', '--no-two-factor', '--no-passkeys', '--oauth', 'none', '--api-keys', '--no-oauth-provider', '--no-passwordless', '--captcha', 'none', '--no-install', '--no-git'])
  await terminal.answer('Add teams (shared workspaces with roles and invitations)?', ['n'])
  expect(await terminal.exitCode()).toBe(0)
  expect(terminal.screen()).not.toContain('enterprise SSO')
  terminal.close()
  rmSync(join(dir.path, '.exit-code'))

  terminal = new Terminal(dir.path, ['other', '--db', 'sqlite', '--access-ttl', '5m', '--refresh-ttl', '1h', '--remember-ttl', '1d', '--no-email-verification', '--cookie-name', 'app', '--no-two-factor', '--no-passkeys', '--oauth', 'none', '--no-api-keys', '--no-oauth-provider', '--sso', '--no-passwordless', '--captcha', 'none', '--no-install', '--no-git'])
  await terminal.answer('Add teams (shared workspaces with roles and invitations)?', ['n'])
  expect(await terminal.exitCode()).toBe(1)
  expect(terminal.screen()).toContain('--sso needs --teams')
  expect(existsSync(join(dir.path, 'other'))).toBe(false)
})
