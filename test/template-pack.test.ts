import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ejs from 'ejs'
import { afterAll, describe, expect, it } from 'vitest'
import { renderProject } from '../src/generate/index.js'
import { TEMPLATES_DIR } from '../src/generate/templates/folder.js'
import { packStore } from '../src/generate/templates/pack.js'
import { packTemplates, templateFiles } from '../src/generate/templates/pack-writer.js'
import { VARIANT_IDS, variantAnswers } from '../src/variants.js'
import { listTree, runCli, tempDir } from './helpers/cli.js'
import { countingRandom } from './helpers/random.js'

// The published CLI renders from dist/templates.pack, the tests and scripts from templates/:
// both must give the same bytes.
const dir = tempDir()
afterAll(() => dir.remove())

function storeOf(files: Map<string, Buffer>) {
  const file = join(dir.path, `${Math.random().toString(36).slice(2)}.pack`)
  writeFileSync(file, packTemplates(files))
  return packStore(file)
}

describe('the template pack', () => {
  const pack = storeOf(templateFiles(TEMPLATES_DIR))

  it.each(VARIANT_IDS)('renders %s exactly as the templates folder does', (id) => {
    const fromFolder = renderProject(variantAnswers(id), 'my-app', { random: countingRandom() })
    const fromPack = renderProject(variantAnswers(id), 'my-app', { random: countingRandom(), templates: pack })
    expect([...fromPack.keys()]).toEqual([...fromFolder.keys()])
    for (const [path, contents] of fromFolder) expect(fromPack.get(path)!.toString(), path).toBe(contents.toString())
  })

  it("escapes <%= %> as EJS does and keeps <%- %> raw", () => {
    const template = `<%= value %>|<%- value %>|<%= missing %>|<% if (flag) { %>on<% } %>`
    const context = { value: `<a href="x">&'</a>`, missing: undefined, flag: true }
    const store = storeOf(new Map([['t.ejs', Buffer.from(template)]]))
    expect(store.render('t.ejs', context)).toBe(ejs.render(template, context))
  })

  it('holds only its own files', () => {
    const store = storeOf(new Map([['base/a.txt', Buffer.from('a')]]))
    expect(store.list('base')).toEqual(['a.txt'])
    expect(store.has('base/a.txt')).toBe(true)
    for (const path of ['constructor', 'toString', 'base/b.txt']) {
      expect(store.has(path), path).toBe(false)
      expect(() => store.read(path), path).toThrow(`no template ${path}`)
    }
  })

  it('is what `npm run build` wrote beside the CLI, which generates the same project', async () => {
    expect(readFileSync(new URL('../dist/templates.pack', import.meta.url)).equals(packTemplates(templateFiles(TEMPLATES_DIR)))).toBe(true)
    const { code, stderr } = await runCli(['app', '--yes', '--no-install', '--no-git'], { cwd: dir.path })
    expect(code, stderr).toBe(0)
    const rendered = renderProject(variantAnswers('sqlite'), 'app', { random: countingRandom() })
    expect(listTree(join(dir.path, 'app')).filter((path) => !path.endsWith('/'))).toEqual([...rendered.keys()])
    // .env alone holds the CLI's random secrets.
    for (const [path, contents] of rendered) {
      if (path !== '.env') expect(readFileSync(join(dir.path, 'app', path), 'utf8'), path).toBe(contents.toString())
    }
  })
})
