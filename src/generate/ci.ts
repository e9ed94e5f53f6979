import type { PackageManager } from '../options.js'

/** One command of the app's CI: a step of `.github/workflows/ci.yml` and a line of its README. */
export interface CiCommand {
  name: string
  run: string
}

/** An install that fails rather than change the committed lockfile: what CI must check. */
const FROZEN_INSTALL: Record<PackageManager, string> = {
  npm: 'npm ci',
  pnpm: 'pnpm install --frozen-lockfile',
  // yarn 4 takes yarn 1's flag too (as --immutable), so one line serves an app installed by either.
  yarn: 'yarn install --frozen-lockfile',
  bun: 'bun install --frozen-lockfile',
}

/**
 * `.env` is git-ignored, so a fresh clone has none: this writes one from `.env.example`, each
 * `change-me` replaced by its own 256-bit secret (as the generator draws them), and refuses to
 * replace a `.env` that exists. Node is the one tool every machine of the app has.
 */
export const ENV_FROM_EXAMPLE =
  `node -e "const fs = require('node:fs'), crypto = require('node:crypto'), file = fs.openSync('.env', 'wx'); ` +
  `fs.writeFileSync(file, fs.readFileSync('.env.example', 'utf8').replace(/=change-me$/gm, () => '=' + crypto.randomBytes(32).toString('hex')))"`

/**
 * What the app's CI runs, in order, after checking out and setting up Node and the package
 * manager: the workflow's `run` steps and the README's list are both rendered from this, so they
 * cannot drift (test/app-ci.test.ts parses both outputs and compares them).
 */
export function ciCommands(pm: PackageManager, run: (script: string) => string): CiCommand[] {
  return [
    // yarn 4 records itself in package.json's `packageManager`, which only Corepack honours.
    ...(pm === 'yarn' ? [{ name: 'Enable Corepack', run: 'corepack enable' }] : []),
    { name: 'Install', run: FROZEN_INSTALL[pm] },
    { name: 'Create .env', run: ENV_FROM_EXAMPLE },
    { name: 'Migrate', run: run('db:migrate') },
    { name: 'Typecheck', run: run('typecheck') },
    { name: 'Server and client tests', run: run('test') },
    { name: 'Build', run: run('build') },
    { name: 'Browser tests', run: run('test:e2e') },
  ]
}
