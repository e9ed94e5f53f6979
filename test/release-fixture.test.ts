import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { lte } from 'semver'
import { describe, expect, it } from 'vitest'

/**
 * `test:update` makes its app with the newest release kept in test/fixtures/releases and
 * upgrades it: a release without its tarball there would leave the upgrade from it untested.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const changelog = readFileSync(`${ROOT}/CHANGELOG.md`, 'utf8')
const newest = /^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$/m.exec(changelog)?.[1]
const version = (JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { version: string }).version

describe('the newest release', () => {
  it('has an entry in CHANGELOG.md no newer than package.json', () => {
    expect(newest).toBeDefined()
    expect(lte(newest!, version)).toBe(true)
  })

  it('is kept as the tarball npm pack made of it, of that version', () => {
    const tarball = `${ROOT}/test/fixtures/releases/create-cookie-auth-app-${newest}.tgz`
    expect(existsSync(tarball), `${tarball}: at a release, npm pack --pack-destination test/fixtures/releases`).toBe(true)
    const pkg = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as { name: string; version: string }
    expect(pkg).toMatchObject({ name: 'create-cookie-auth-app', version: newest })
  })
})
