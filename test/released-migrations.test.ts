import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { TEMPLATES, migrationFiles, readManifest, sha256 } from '../scripts/lib/released-migrations.js'

/**
 * Migrations are append-only once released: `update` brings an existing database along by running
 * the migrations it has not run, so an edited one would never run again where it already ran, and
 * two databases of one version would differ. A schema change is a new migration. The manifest
 * (test/released-migrations.json) is what `npm run migrations:release` recorded at the last release.
 */
const manifest = readManifest()

it.each(Object.entries(manifest))('%s is still there, byte for byte as released', (path, hash) => {
  expect(existsSync(join(TEMPLATES, path)), `${path} was released; a migration is never removed`).toBe(true)
  expect(sha256(path), `${path} was released; change the schema with a new migration instead`).toBe(hash)
})

// New migrations are fine between releases; the release adds them here (npm run migrations:release).
it("lists migrations only, base's and the layers' among them", () => {
  const migrations = migrationFiles()
  expect(Object.keys(manifest).filter((path) => !migrations.includes(path))).toEqual([])
  expect(Object.keys(manifest).some((path) => path.startsWith('base/'))).toBe(true)
  expect(Object.keys(manifest).some((path) => path.includes('/features/'))).toBe(true)
})
