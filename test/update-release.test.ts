import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { renderProject } from '../src/generate/index.js'
import { GENERATOR, RECORD_FILE } from '../src/generate/record.js'
import { TEMPLATES_DIR } from '../src/generate/templates/folder.js'
import { packTemplates, templateFiles } from '../src/generate/templates/pack-writer.js'
import { variantAnswers } from '../src/variants.js'
import { listTree, runCli, tempDir, userEnv } from './helpers/cli.js'
import { countingRandom } from './helpers/random.js'

/**
 * An upgrade: an app made by an earlier release, updated by this one. The earlier release is
 * this package's build with another version and older templates (no migration 0014 yet, and an
 * old first line in app.ts), packed as npm would; its own CLI renders the base.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const OLD = '0.0.9'
const MIGRATION = 'server/src/kernel/db/migrations/0014-record-confirmation.ts'
const OLD_LINE = '// As the previous release wrote it.\n'

const dir = tempDir('cca-upgrade-')
const release = join(dir.path, 'package')
const tarball = join(dir.path, `create-cookie-auth-app-${OLD}.tgz`)
const path = join(dir.path, 'app')
let initial = ''
afterAll(() => dir.remove())

const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Owner', '-c', 'user.email=owner@example.com', ...args], { cwd: path, encoding: 'utf8' })
// Offline, so that checking a --from tarball against the registry asks nobody (update-integrity.test.ts stands one in).
const update = (args: string[], env = userEnv({ npm_config_offline: 'true' })) => runCli(['update', ...args, '--no-install', '--no-migrate'], { cwd: path, env })

function writeOldRelease() {
  mkdirSync(join(release, 'dist'), { recursive: true })
  cpSync(join(ROOT, 'bin'), join(release, 'bin'), { recursive: true })
  cpSync(join(ROOT, 'dist/cli'), join(release, 'dist/cli'), { recursive: true })
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  writeFileSync(join(release, 'package.json'), JSON.stringify({ ...pkg, version: OLD }))
  const templates = templateFiles(TEMPLATES_DIR)
  templates.delete(`base/${MIGRATION}`)
  const index = 'base/server/src/kernel/db/migrations/index.ts'
  templates.set(index, Buffer.from(templates.get(index)!.toString().replace(/^.*0014-record-confirmation.*\n/gm, '')))
  templates.set('base/server/src/app.ts', Buffer.concat([Buffer.from(OLD_LINE), templates.get('base/server/src/app.ts')!]))
  writeFileSync(join(release, 'dist/templates.pack'), packTemplates(templates))
  execFileSync('tar', ['-czf', tarball, '-C', dir.path, 'package'])
}

beforeAll(() => {
  writeOldRelease()
  execFileSync(process.execPath, [join(release, 'bin/create-cookie-auth-app.js'), path, '--no-install', '--git', '--yes'], { env: userEnv() })
  initial = git('rev-parse', 'HEAD').trim()
})

beforeEach(() => {
  git('reset', '-q', '--hard', initial)
  git('clean', '-qfd')
})

describe('update from an earlier release', () => {
  it('brings the app to this version: new files, unedited ones replaced, edited ones merged', async () => {
    expect(JSON.parse(readFileSync(join(path, RECORD_FILE), 'utf8')).generator.version).toBe(OLD)
    writeFileSync(join(path, 'server/src/app.ts'), `${readFileSync(join(path, 'server/src/app.ts'), 'utf8')}// Owner: our own middleware goes here.\n`)
    git('commit', '-qam', 'owner edit')

    const { code, stdout, stderr } = await update(['--from', tarball])
    expect(code, stderr).toBe(0)
    expect(stdout).toContain(`${GENERATOR.name} ${OLD} → ${GENERATOR.version}\n`)
    expect(stdout).toContain(`created  ${MIGRATION}\n`)
    expect(stdout).toContain('updated  server/src/kernel/db/migrations/index.ts\n')
    expect(stdout).toContain('merged   server/src/app.ts\n')

    const app = readFileSync(join(path, 'server/src/app.ts'), 'utf8')
    expect(app.startsWith(OLD_LINE)).toBe(false)
    expect(app.endsWith('// Owner: our own middleware goes here.\n')).toBe(true)
    // Everything else is what this version generates, the record with it.
    const fresh = renderProject(variantAnswers('sqlite'), 'app', { random: countingRandom() })
    const files = listTree(path).filter((entry) => !entry.endsWith('/') && !entry.startsWith('.git/'))
    expect(files).toEqual([...fresh.keys()].sort())
    for (const file of files.filter((entry) => entry !== '.env' && entry !== 'server/src/app.ts')) {
      expect(readFileSync(join(path, file)).equals(fresh.get(file)!), file).toBe(true)
    }
  })

  it('takes the release from its unpacked folder as well', async () => {
    const { code, stdout } = await update(['--from', release, '--dry-run'])
    expect(code).toBe(0)
    expect(stdout).toContain(`created  ${MIGRATION}\n`)
  })

  it('refuses a --from of another version, in one line', async () => {
    const { code, stderr } = await update(['--from', ROOT])
    expect(code).toBe(1)
    expect(stderr).toBe(`error: --from "${ROOT}" is invalid: it is ${GENERATOR.name} ${GENERATOR.version}, and ${OLD} made this app\n`)
  })

  it('says in one line when the registry cannot give the release', async () => {
    const { code, stderr } = await update([], userEnv({ npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' }))
    expect(code).toBe(1)
    expect(stderr).toBe(`error: cannot fetch ${GENERATOR.name}@${OLD} from the npm registry (ECONNREFUSED): pass --from <tarball|directory> of that release\n`)
  })

  it('refuses an app made by a newer release', async () => {
    const record = JSON.parse(readFileSync(join(path, RECORD_FILE), 'utf8'))
    writeFileSync(join(path, RECORD_FILE), JSON.stringify({ ...record, generator: { ...record.generator, version: '99.0.0' } }))
    git('commit', '-qam', 'from the future')
    const { code, stderr } = await update([])
    expect(code).toBe(1)
    expect(stderr).toBe(`error: ${GENERATOR.name} 99.0.0 made this app, newer than this ${GENERATOR.version}: run ${GENERATOR.name}@99.0.0 update\n`)
  })
})
