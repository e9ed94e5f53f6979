import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import rsort from 'semver/functions/rsort.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GENERATOR } from '../src/generate/record.js'
import { runCli, tempDir, userEnv } from './helpers/cli.js'

/**
 * `update --from <tarball>` runs that tarball's CLI, so it is checked against the integrity the
 * npm registry publishes for that release. The registry is a stand-in on loopback (npm's own
 * `npm_config_registry`), answering each case under its own path; the tarball is the newest
 * release of test/fixtures/releases, which also makes the app.
 */
const RELEASES = fileURLToPath(new URL('fixtures/releases/', import.meta.url))
const version = rsort(readdirSync(RELEASES).flatMap((file) => /^create-cookie-auth-app-(.+)\.tgz$/.exec(file)?.[1] ?? []))[0]!
const tarball = join(RELEASES, `create-cookie-auth-app-${version}.tgz`)
const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`
const other = `sha512-${createHash('sha512').update('another tarball').digest('base64')}`
const spec = `${GENERATOR.name}@${version}`

const dir = tempDir('cca-integrity-')
const path = join(dir.path, 'app')
let registry: Server
let origin = ''
afterAll(() => {
  registry?.close()
  dir.remove()
})

/** What the stand-in publishes under `/<case>/`: that integrity for the release, or no such package. */
const published: Record<string, string | undefined> = { match: integrity, mismatch: other, unpublished: undefined }

beforeAll(async () => {
  registry = createServer((request, response) => {
    const [, name, packument] = /^\/(\w+)\/(.+)$/.exec(request.url ?? '') ?? []
    const answer = name !== undefined && published[name]
    if (!answer || decodeURIComponent(packument!) !== GENERATOR.name) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}')
      return
    }
    const manifest = { name: GENERATOR.name, version, dist: { integrity: answer, tarball: `${origin}/${name}/-/${GENERATOR.name}-${version}.tgz` } }
    response
      .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(JSON.stringify({ name: GENERATOR.name, 'dist-tags': { latest: version }, versions: { [version]: manifest } }))
  })
  await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`

  const release = join(dir.path, 'release')
  mkdirSync(release)
  execFileSync('tar', ['-xzf', tarball, '-C', release])
  execFileSync(process.execPath, [join(release, 'package/bin/create-cookie-auth-app.js'), path, '--no-install', '--git', '--yes'], { env: userEnv() })
})

const upgrade = (env: Record<string, string>) =>
  runCli(['update', '--from', tarball, '--dry-run', '--no-install', '--no-migrate'], { cwd: path, env: userEnv({ npm_config_fetch_retries: '0', ...env }) })
const at = (name: string) => ({ npm_config_registry: `${origin}/${name}/` })

describe('update --from <tarball> against the registry', () => {
  it('runs a tarball whose integrity is the one the registry publishes for that release', async () => {
    const { code, stdout, stderr } = await upgrade(at('match'))
    expect(code, stderr).toBe(0)
    expect(stderr).toBe('')
    expect(stdout).toContain(`${GENERATOR.name} ${version} → ${GENERATOR.version}`)
  })

  it('refuses in one line a tarball whose integrity differs', async () => {
    const { code, stdout, stderr } = await upgrade(at('mismatch'))
    expect(code).toBe(1)
    expect(stderr).toBe(`error: --from "${tarball}" is invalid: its integrity ${integrity} is not that of ${spec} on the npm registry (${other})\n`)
    expect(stdout).toBe('')
  })

  it.each([
    ['not published', () => at('unpublished')],
    ['the npm registry could not be asked: ECONNREFUSED', () => ({ npm_config_registry: 'http://127.0.0.1:9/' })],
  ])('warns and goes on when the registry has no integrity to compare (%s)', async (why, env) => {
    const { code, stdout, stderr } = await upgrade(env())
    expect(code, stderr).toBe(0)
    expect(stderr).toBe(`warning: --from "${tarball}" could not be checked against ${spec} on the npm registry (${why}): it runs as given\n`)
    expect(stdout).toContain(`${GENERATOR.name} ${version} → ${GENERATOR.version}`)
  })
})
