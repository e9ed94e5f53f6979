/**
 * What `npm run new:layer <name>` writes: a feature layer's folder, templates/<name>/, holding its
 * row of the options table (layer.ts: `--<name>`, default no, matrix tag `<name>`), a server
 * feature answering `GET /api/<name>` with `{ ok: true }` through the manifest's `routes.api`, and
 * its test, which starts the app as the other layers' tests do.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { RUN_FLAGS } from '../../src/cli/program.js'
import { TEMPLATES_DIR } from '../../src/generate/templates/folder.js'
import { DATABASES, OPTIONS, camelCase } from '../../src/options.js'
import { listTree } from '../../test/helpers/cli.js'
import { layerMentions } from '../../test/helpers/layer-names.js'

/** Where a layer imports the app's core from: the kernel's public index once base has one, else the context module. */
export function coreImport(templates = TEMPLATES_DIR): string {
  return existsSync(join(templates, 'base', 'server', 'src', 'kernel', 'index.ts')) ? '../../kernel/index.js' : '../../context.js'
}

/** Why `name` cannot be a new layer, or null: a folder name, a flag and a variant tag that nothing has yet. */
export function refusal(name: string, templates = TEMPLATES_DIR): string | null {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) return `"${name}" is not a layer name: lower-case letters and digits, words joined by -, a letter first`
  if (name === 'base' || name.startsWith('db-') || existsSync(join(templates, name))) return `templates/${name}/ is taken`
  const list = OPTIONS.find((option) => option.layer && option.choices && name.startsWith(`${option.layer}-`))
  if (list) return `${list.layer}-… names the values of ${list.flag} (${list.multiple ? `templates/${list.layer}-<value>/` : `add ${list.layer}-<value>`})`
  const flags = new Set([...OPTIONS.map((option) => option.flag.slice(2)), ...RUN_FLAGS.flatMap((flag) => flag.flags.split(', ').map((part) => part.replace(/^-+/, ''))), 'help', 'version', 'no'])
  if (flags.has(name) || name.startsWith('no-')) return `--${name} is a flag already`
  if (OPTIONS.some((option) => option.key === camelCase(name))) return `the answer ${camelCase(name)} exists already`
  const tags = new Set([...OPTIONS.flatMap((option) => (option.matrix ? [option.matrix.tag] : [])), ...DATABASES, 'redis'])
  if (tags.has(name)) return `${name} tags variants already`
  const named = readdirSync(templates)
    .filter((dir) => dir === 'base' || dir.startsWith('db-'))
    .flatMap((common) =>
      listTree(join(templates, common))
        .filter((path) => !path.endsWith('/') && layerMentions(readFileSync(join(templates, common, path), 'utf8'), path, name).length > 0)
        .map((path) => `${common}/${path}`),
    )
  if (named.length) return `base names ${name} in its code already (${named.slice(0, 5).join(', ')}${named.length > 5 ? ', …' : ''}), which a layer of that name fails (test/generate.test.ts)`
  return null
}

/** The layer's files, by path relative to templates/<name>/. */
export function layerFiles(name: string, core = coreImport()): Map<string, string> {
  const key = camelCase(name)
  return new Map([
    [
      'layer.ts',
      `// The ${name} layer's row of the options table (src/options.ts assembles it). Read by the
// generator only: never copied into an app.
import { defineOption } from '../../src/option-row.js'

declare module '../../src/option-row.js' {
  interface LayerAnswers {
    ${key}: boolean
  }
}

export default defineOption({
  key: '${key}',
  flag: '--${name}',
  description: 'add the ${name} layer',
  negated: 'leave the ${name} layer out',
  prompt: 'Add ${name}?',
  default: () => false,
  contractDefault: 'no',
  layer: '${name}',
  matrix: { tag: '${name}' },
  readme: 'the ${name} layer (\`templates/${name}/\`): \`GET /api/${name}\` answers \`{ ok: true }\`',
})
`,
    ],
    [
      `server/src/features/${name}/index.ts`,
      `import type { AppFeature } from '${core}'

/** The ${name} layer: GET /api/${name}, behind the API's middleware. */
export const feature: AppFeature = {
  name: '${name}',
  routes: {
    api(router) {
      router.get('/${name}', (_req, res) => {
        res.json({ ok: true })
      })
    },
  },
}
`,
    ],
    [
      `server/tests/${name}.test.ts`,
      `import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

describe('the ${name} layer', () => {
  let built: TestApp
  beforeAll(async () => {
    built = await t.build()
  })

  it('answers GET /api/${name}', async () => {
    const res = await supertest(built.app).get('/api/${name}')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true })
  })
})
`,
    ],
  ])
}
