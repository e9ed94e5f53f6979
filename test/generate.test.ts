import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { generate, packageName, renderProject } from '../src/generate/index.js'
import { deepMerge, finishPackageJson, pinnedVersions } from '../src/generate/package-json.js'
import { RECORD_FILE } from '../src/generate/record.js'
import { layersFor } from '../src/generate/layers.js'
import { TEMPLATES_DIR } from '../src/generate/templates/folder.js'
import { templateFiles } from '../src/generate/templates/pack-writer.js'
import { LAYER_ROW_FILE } from '../src/layer-files.js'
import { OPTIONS, fullestAnswer } from '../src/options.js'
import { RELEASE_VARIANT_IDS, VARIANT_IDS, variantAnswers } from '../src/variants.js'
import { listTree, tempDir } from './helpers/cli.js'
import { layerMentions } from './helpers/layer-names.js'
import { countingRandom } from './helpers/random.js'

const sqlite = variantAnswers('sqlite')

/** cookie-auth.json records every answer, a feature's "no" too: the one file that names what is off, by design. */
const withoutRecord = (files: Map<string, Buffer>) => [...files].filter(([path]) => path !== RECORD_FILE)

/** The app paths a layer's folder renders to (its own files, its sub-layers' too), as the generator names them. */
const renderedPaths = (folder: string): string[] =>
  listTree(join(TEMPLATES_DIR, folder))
    .filter((path) => !path.endsWith('/') && !path.startsWith('partials/') && path !== 'package.json' && path !== LAYER_ROW_FILE)
    .map((path) => path.replace(/^\+[^/]+\//, '').replace(/(^|\/)_/g, '$1.').replace(/\.ejs$/, ''))

/** A layer's partials (what it adds to base's files), by path relative to its folder, with their text. */
const partialsOf = (folder: string): [string, string][] =>
  existsSync(join(TEMPLATES_DIR, folder, 'partials'))
    ? listTree(join(TEMPLATES_DIR, folder, 'partials'))
        .filter((path) => !path.endsWith('/'))
        .map((path) => [`partials/${path}`, readFileSync(join(TEMPLATES_DIR, folder, 'partials', path), 'utf8')])
    : []

describe('renderProject', () => {
  it('gives byte-identical output for the same answers and random source', () => {
    const first = renderProject(sqlite, 'my-app', { random: countingRandom() })
    const second = renderProject(sqlite, 'my-app', { random: countingRandom() })
    expect([...second.keys()]).toEqual([...first.keys()])
    for (const [path, contents] of first) expect(second.get(path)!.equals(contents), path).toBe(true)
  })

  it('puts randomness only into the .env secrets', () => {
    const first = renderProject(sqlite, 'my-app', { random: countingRandom(0) })
    const second = renderProject(sqlite, 'my-app', { random: countingRandom(100) })
    const differing = [...first].filter(([path, contents]) => !second.get(path)!.equals(contents)).map(([path]) => path)
    expect(differing).toEqual(['.env'])
  })

  it('writes three distinct 256-bit secrets into .env and placeholders into .env.example', () => {
    const files = renderProject(sqlite, 'my-app', { random: countingRandom() })
    const env = files.get('.env')!.toString()
    const secrets = ['JWT_ACCESS_SECRET', 'JWT_REFRESH_SECRET', 'COOKIE_SECRET'].map(
      (name) => new RegExp(`^${name}=(.*)$`, 'm').exec(env)?.[1],
    )
    for (const secret of secrets) expect(secret).toMatch(/^[0-9a-f]{64}$/)
    expect(new Set(secrets).size).toBe(3)
    const example = files.get('.env.example')!.toString()
    expect(example).toMatch(/^JWT_ACCESS_SECRET=change-me$/m)
    expect(example).not.toContain(secrets[0])
  })

  it('renames underscore dotfiles and strips .ejs', () => {
    const paths = [...renderProject(sqlite, 'my-app', { random: countingRandom() }).keys()]
    expect(paths).toContain('.gitignore')
    expect(paths).toContain('.env')
    expect(paths.filter((path) => path.endsWith('.ejs') || /(^|\/)_/.test(path))).toEqual([])
  })

  it('sets the database URL and driver per variant', () => {
    const mysql = renderProject(variantAnswers('mysql'), 'shop-2', { random: countingRandom() })
    expect(mysql.get('.env')!.toString()).toContain('DATABASE_URL=mysql://root@127.0.0.1:3306/shop_2\n')
    const pkg = JSON.parse(mysql.get('package.json')!.toString())
    expect(pkg.dependencies.mysql2).toBe(pinnedVersions().mysql2)
    expect(pkg.dependencies.sqlite3).toBeUndefined()
    expect(renderProject(variantAnswers('mysql'), 'mysql', { random: countingRandom() }).get('.env')!.toString()).toContain(
      'DATABASE_URL=mysql://root@127.0.0.1:3306/mysql_app\n',
    )
    const lite = JSON.parse(renderProject(sqlite, 'x', { random: countingRandom() }).get('package.json')!.toString())
    expect(lite.dependencies.sqlite3).toBe(pinnedVersions().sqlite3)
    expect(lite.dependencies.mysql2).toBeUndefined()
    expect(lite.dependencies.pg).toBeUndefined()
    const postgres = renderProject(variantAnswers('postgres'), 'shop-2', { random: countingRandom() })
    expect(postgres.get('.env')!.toString()).toContain('DATABASE_URL=postgres://postgres@127.0.0.1:5432/shop_2\n')
    const pg = JSON.parse(postgres.get('package.json')!.toString())
    expect(pg.dependencies).toMatchObject({ pg: pinnedVersions().pg, 'pg-hstore': pinnedVersions()['pg-hstore'] })
    expect(pg.dependencies.sqlite3).toBeUndefined()
    expect(pg.dependencies.mysql2).toBeUndefined()
    for (const name of ['postgres', 'template1']) {
      expect(renderProject(variantAnswers('postgres'), name, { random: countingRandom() }).get('.env')!.toString()).toContain(
        `DATABASE_URL=postgres://postgres@127.0.0.1:5432/${name}_app\n`,
      )
    }
  })
})

describe('package.json fragments', () => {
  it('promises the same Node versions for the generator as for the apps it makes', () => {
    const engines = (path: string) => (JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { engines: { node: string } }).engines.node
    expect(engines('../templates/base/package.json')).toBe(engines('../package.json'))
  })

  it('deep-merges objects, unions arrays and lets later layers win', () => {
    expect(
      deepMerge(
        { scripts: { dev: 'a', test: 'b' }, dependencies: ['vue', 'zod'], private: true },
        { scripts: { dev: 'c' }, dependencies: ['axios', 'vue'], private: false },
      ),
    ).toEqual({ scripts: { dev: 'c', test: 'b' }, dependencies: ['vue', 'zod', 'axios'], private: false })
  })

  it('pins every dependency from versions.json, sorted', () => {
    const pkg = finishPackageJson({ dependencies: ['zod', 'axios'], devDependencies: ['vite'] }, 'x', pinnedVersions())
    expect(pkg).toEqual({
      name: 'x',
      dependencies: { axios: pinnedVersions().axios, zod: pinnedVersions().zod },
      devDependencies: { vite: pinnedVersions().vite },
    })
    expect(Object.keys(pkg.dependencies as object)).toEqual(['axios', 'zod'])
  })

  it("gives pnpm, bun and yarn 4 the packages npm's allowScripts lets build, and no others", () => {
    const pkg = finishPackageJson({ allowScripts: { sqlite3: true, esbuild: true, 'left-pad': false } }, 'x', pinnedVersions())
    expect(pkg.pnpm).toEqual({ onlyBuiltDependencies: ['esbuild', 'sqlite3'] })
    expect(pkg.trustedDependencies).toEqual(['esbuild', 'sqlite3'])
    expect(pkg.dependenciesMeta).toEqual({ esbuild: { built: true }, sqlite3: { built: true } })
  })

  it('gives yarn the pinned version of each package the app must hold one copy of', () => {
    const versions = pinnedVersions()
    const pkg = finishPackageJson({ resolutions: ['vite'], devDependencies: ['vite'] }, 'x', versions)
    expect(pkg.resolutions).toEqual({ vite: versions.vite })
    const app = JSON.parse(renderProject(variantAnswers('sqlite'), 'variant', { random: () => Buffer.alloc(32) }).get('package.json')!.toString()) as Record<string, Record<string, string>>
    expect(app.resolutions).toEqual({ vite: app.devDependencies!.vite })
  })

  it('refuses a dependency with no pinned version', () => {
    expect(() => finishPackageJson({ dependencies: ['left-pad'] }, 'x', pinnedVersions())).toThrow(
      'left-pad has no pinned version in templates/versions.json',
    )
  })

  it('pins nothing that no variant uses: the shared install of the variant runs is versions.json whole', () => {
    const used = new Set<string>()
    for (const id of RELEASE_VARIANT_IDS) {
      const pkg = JSON.parse(renderProject(variantAnswers(id), 'variant', { random: () => Buffer.alloc(32) }).get('package.json')!.toString()) as Record<string, Record<string, string> | undefined>
      for (const name of [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]) used.add(name)
    }
    expect(Object.keys(pinnedVersions()).filter((name) => !used.has(name))).toEqual([])
  })

  it('pins exact versions only', () => {
    for (const [name, version] of Object.entries(pinnedVersions())) expect(version, name).toMatch(/^\d+\.\d+\.\d+$/)
  })
})

describe('generate', () => {
  it('writes every rendered file and names the package after the folder', () => {
    const dir = tempDir()
    try {
      const target = join(dir.path, 'My Shop')
      const written = generate(sqlite, target, { random: countingRandom() })
      expect(listTree(target).filter((path) => !path.endsWith('/'))).toEqual([...written].sort())
      expect(JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')).name).toBe('my-shop')
    } finally {
      dir.remove()
    }
  })

  it("writes no layer's options row (layer.ts), with every layer on, from the folder or the pack", () => {
    const rows = readdirSync(TEMPLATES_DIR).filter((layer) => existsSync(join(TEMPLATES_DIR, layer, LAYER_ROW_FILE)))
    expect(rows.sort()).toEqual(OPTIONS.flatMap((option) => (option.layer ? [option.layer] : [])).sort())
    const everyLayer = { ...sqlite, ...Object.fromEntries(OPTIONS.filter((option) => option.layer).map((option) => [option.key, fullestAnswer(option)])) }
    expect(layersFor(everyLayer)).toEqual(expect.arrayContaining(rows))
    const dir = tempDir()
    try {
      const written = generate(everyLayer, join(dir.path, 'app'), { random: countingRandom() })
      expect(written.filter((path) => path.split('/').pop() === LAYER_ROW_FILE)).toEqual([])
      expect(listTree(join(dir.path, 'app')).filter((path) => path.split('/').pop() === LAYER_ROW_FILE)).toEqual([])
    } finally {
      dir.remove()
    }
    expect([...templateFiles(TEMPLATES_DIR).keys()].filter((path) => path.endsWith(`/${LAYER_ROW_FILE}`) && path.split('/').length === 2)).toEqual([])
  })

  it.each([
    ['my-app', 'my-app'],
    ['My App!', 'my-app'],
    ['__x__', 'x__'],
    ['...', 'cookie-auth-app'],
  ])('derives the package name %j → %j', (folder, name) => {
    expect(packageName(folder)).toBe(name)
  })
})

describe('the contract of a generated app', () => {
  it('has exactly the scripts of CONTRACT §2 (plus the worker, and the search refill that rows written with SQL need)', () => {
    const pkg = JSON.parse(renderProject(sqlite, 'x', { random: countingRandom() }).get('package.json')!.toString())
    expect(Object.keys(pkg.scripts).sort()).toEqual(
      ['build', 'db:migrate', 'db:refill-search', 'dev', 'start', 'test', 'test:e2e', 'typecheck', 'user:create', 'worker'].sort(),
    )
    expect(pkg.type).toBe('module')
    expect(pkg.private).toBe(true)
  })

  it('starts the server the same way from npm start and from the Docker image', () => {
    const files = renderProject(sqlite, 'x', { random: countingRandom() })
    const start = JSON.parse(files.get('package.json')!.toString()).scripts.start as string
    const cmd = /^CMD (\[.*\])$/m.exec(files.get('deploy/Dockerfile')!.toString())![1]!
    expect(start).toMatch(/^node --max-old-space-size=\d+ dist\/server\/index\.js$/)
    expect((JSON.parse(cmd) as string[]).join(' ')).toBe(start)
  })

  it('--two-factor adds the two-factor layer; without it nothing of the feature is rendered', () => {
    const answers = variantAnswers('postgres')
    const on = renderProject({ ...answers, twoFactor: true }, 'x', { random: countingRandom() })
    const off = renderProject({ ...answers, twoFactor: false }, 'x', { random: countingRandom() })
    const added = [...on.keys()].filter((path) => !off.has(path))
    expect(added).toContain('server/src/features/two-factor/index.ts')
    expect(added).toContain('server/src/features/two-factor/routes.ts')
    // Everything the layer adds to the server is in its one folder.
    expect(added.filter((path) => path.startsWith('server/src/') && !path.startsWith('server/src/features/two-factor/'))).toEqual([])
    // And all it adds to the client in its folder there.
    expect(added).toContain('client/src/features/two-factor/pages/TwoFactorChallengePage.vue')
    expect(added.filter((path) => path.startsWith('client/src/') && !path.startsWith('client/src/features/two-factor/'))).toEqual([])
    expect([...off.keys()].filter((path) => !on.has(path))).toEqual([])
    expect([...on.keys()].some((path) => path.startsWith('partials/'))).toBe(false)
    for (const [path, contents] of withoutRecord(off)) {
      expect(contents.toString('utf8'), path).not.toMatch(/two[-_ ]?factor|ENCRYPTION_KEY|otpauth|_2fa/i)
    }
    const env = on.get('.env')!.toString()
    const secrets = ['JWT_ACCESS_SECRET', 'JWT_REFRESH_SECRET', 'COOKIE_SECRET', 'ENCRYPTION_KEY'].map((name) => new RegExp(`^${name}=(.*)$`, 'm').exec(env)?.[1])
    for (const secret of secrets) expect(secret).toMatch(/^[0-9a-f]{64}$/)
    expect(new Set(secrets).size).toBe(4)
    expect(on.get('.env.example')!.toString()).toMatch(/^ENCRYPTION_KEY=change-me$/m)
    const pkg = JSON.parse(on.get('package.json')!.toString())
    expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining(['otpauth', 'qrcode']))
    expect(JSON.parse(off.get('package.json')!.toString()).dependencies.otpauth).toBeUndefined()
  })

  it('--oauth adds the oauth layer and one layer per provider chosen, and nothing of the others', () => {
    const answers = variantAnswers('sqlite')
    const github = renderProject({ ...answers, oauth: ['github'] }, 'x', { random: countingRandom() })
    expect(github.has('server/src/features/oauth/services/providers/github.ts')).toBe(true)
    expect(github.has('server/src/features/oauth/services/providers/github-config.ts')).toBe(true)
    // The app's code and settings; the development provider of the README's walk-through is an OpenID one whatever was chosen.
    for (const [path, contents] of [...github].filter(([path]) => /^(server\/src|client\/src)\/|^\.env/.test(path))) {
      expect(contents.toString('utf8'), path).not.toMatch(/OAUTH_(GOOGLE|OIDC)|oauth-(google|oidc)|providers\/(google|oidc)/)
    }
    const index = github.get('server/src/features/oauth/services/providers/index.ts')!.toString()
    expect(index).toContain("import { githubProvider } from './github.js'")
    expect(index).toContain('[githubProvider(settings.env)]')
    const all = renderProject({ ...answers, oauth: ['github', 'google', 'oidc'] }, 'x', { random: countingRandom() })
    expect(all.get('.env.example')!.toString()).toMatch(/OAUTH_GITHUB_CLIENT_ID=[\s\S]*OAUTH_GOOGLE_CLIENT_ID=[\s\S]*OAUTH_OIDC_ISSUER=/)
    expect(JSON.parse(all.get('package.json')!.toString()).scripts['oauth:dev-provider']).toBeDefined()
  })

  // The extension points of base (server/src/features/, client/src/features/) are the only way in.
  // A list's layer brings one layer per value (`oauth-github`): they are off with it, and checked with it.
  describe.each(OPTIONS.filter((option) => option.layer))('the $layer layer', ({ key, layer, default: fallback }) => {
    const folders = readdirSync(TEMPLATES_DIR).filter((dir) => dir === layer || dir.startsWith(`${layer}-`))
    const shipped = folders.flatMap((folder) =>
      listTree(join(TEMPLATES_DIR, folder)).filter((path) => !path.endsWith('/') && !path.startsWith('partials/') && path !== 'package.json'),
    )

    // In code: as an identifier or a path segment (test/helpers/layer-names.ts), not in comments or prose.
    it('is named nowhere in base or a database layer', () => {
      for (const common of readdirSync(TEMPLATES_DIR).filter((dir) => dir === 'base' || dir.startsWith('db-'))) {
        for (const path of listTree(join(TEMPLATES_DIR, common)).filter((entry) => !entry.endsWith('/'))) {
          expect(layerMentions(readFileSync(join(TEMPLATES_DIR, common, path), 'utf8'), path, layer!), `${common}/${path}`).toEqual([])
        }
      }
    })

    it.each(VARIANT_IDS)('leaves no trace in %s when off', (id) => {
      const env = { userAgent: undefined, gitAvailable: false }
      // The rows that need this one go off with it (--sso without --teams is no app).
      const needing = Object.fromEntries(OPTIONS.filter((option) => option.needs?.includes(key)).map((option) => [option.key, option.default(env)]))
      const answers = { ...variantAnswers(id), [key]: fallback(env), ...needing }
      const off = renderProject(answers, 'x', { random: countingRandom() })
      for (const path of shipped) expect(off.has(path.replace(/(^|\/)_/g, '$1.').replace(/\.ejs$/, '')), path).toBe(false)
      // A layer that is on and speaks this one's words (row.speaks) may use them in its own files.
      const speakers = OPTIONS.filter((other) => other.layer && other.speaks?.includes(layer!) && answers[other.key] === true)
      const spoken = new Set(speakers.flatMap((other) => renderedPaths(other.layer!)))
      // Its partials go into base's files (its variables into docs/configuration.md): what they say there is its own.
      const saidInPartials = new Set(speakers.flatMap((other) => partialsOf(other.layer!).flatMap(([path, text]) => layerMentions(text, path, layer!))))
      for (const [path, contents] of withoutRecord(off)) {
        if (!spoken.has(path)) expect(layerMentions(contents.toString('utf8'), path, layer!).filter((found) => !saidInPartials.has(found)), path).toEqual([])
      }
      const dependencies = Object.keys(JSON.parse(off.get('package.json')!.toString()).dependencies)
      for (const folder of folders.filter((dir) => existsSync(join(TEMPLATES_DIR, dir, 'package.json')))) {
        const fragment = JSON.parse(readFileSync(join(TEMPLATES_DIR, folder, 'package.json'), 'utf8')) as { dependencies?: string[] }
        for (const dependency of fragment.dependencies ?? []) expect(dependencies).not.toContain(dependency)
      }
    })
  })

  // What "names a layer" means above, on a layer `hello`: code that would tie base to it, and what merely says hello.
  describe('naming a layer in code', () => {
    it.each([
      ['server/src/app.ts', "import { feature } from './features/hello/index.js'\n"],
      ['server/src/app.ts', "const routes = await import('./features/hello/routes.js')\n"],
      ['server/src/app.ts', 'export const helloRoutes = []\n'],
      ['server/tests/app.test.ts', "await supertest(app).get('/api/hello').expect(404)\n"],
      ['client/src/App.vue', '<template><HelloCard :to="helloLink" /></template>\n'],
      ['client/src/App.vue', "<template><p>{{ t('hello.title') }}</p></template>\n"],
      ['server/src/kernel/config/auth.ts.ejs', '<% if (hello) { -%>\nexport const on = true\n<% } -%>\n'],
      ['deploy/compose.yaml', 'environment:\n  HELLO_SECRET: x\n'],
    ])('finds the layer in %s: %j', (path, text) => {
      expect(layerMentions(text, path, 'hello')).not.toEqual([])
    })

    it.each([
      ['server/src/app.ts', '// the features/hello/ folder is not imported here\n/* HelloCard */ const x = 1\n'],
      ['server/src/kernel/i18n/messages/en.ts', "export const en = {\n  mail: {\n    hello: 'Hello {{name}},',\n    helloNobody: 'Hello,',\n  },\n}\n"],
      ['server/src/kernel/mail/messages.ts', "const greeting = (t: Translate) => t('mail.helloNobody')\n"],
      ['server/tests/mail.test.ts', "expect(received.body).toContain('Hello Olivia,')\n"],
      ['client/tests/visit.test.ts', "state.text = 'hello'\n"],
      ['client/src/App.vue', '<template><!-- HelloCard --><p>Hello</p></template>\n'],
      ['README.md.ejs', 'Say hello to the features/hello/ folder.\n<%# hello %>\n'],
      ['deploy/compose.yaml', '# hello\nservices: {}\n'],
    ])('finds no layer in %s: %j', (path, text) => {
      expect(layerMentions(text, path, 'hello')).toEqual([])
    })

    it('matches a name by its words, in any case and separators', () => {
      const code = "const twoFactorSecret = 1\nconst TWO_FACTOR = 2\nconst path = '/api/two-factor/setup'\nconst factor = 3\n"
      expect(layerMentions(code, 'x.ts', 'two-factor')).toEqual(['identifier "twoFactorSecret"', 'identifier "TWO_FACTOR"', 'string "/api/two-factor/setup"'])
    })
  })

  // The app's owner has the app and its README, not this repository: nothing in it may send them
  // to the contract, the spec, an audit report or the generator's benchmarks.
  it.each(VARIANT_IDS)('%s cites nothing the app does not contain', (id) => {
    const files = renderProject(variantAnswers(id), 'x', { random: countingRandom() })
    for (const [path, contents] of files) {
      expect(contents.toString('utf8'), path).not.toMatch(/CONTRACT|\bthe spec\b|\bspec's\b|\bbench:[a-z]|\baudit finding|generator's/)
    }
  })

  it('renders the CLI answers into one config file with the spec names', () => {
    const config = renderProject(variantAnswers('mysql-custom-verify'), 'x', { random: countingRandom() })
      .get('server/src/kernel/config/auth.ts')!
      .toString()
    expect(config).toContain('accessExpirySeconds: 600,')
    expect(config).toContain('refreshExpirySeconds: 7200,')
    expect(config).toContain('refreshRememberExpirySeconds: 1209600,')
    expect(config).toContain("name: 'acme',")
    expect(config).toContain('requireEmailVerification: true,')
  })
})
