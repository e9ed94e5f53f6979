import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { coreImport, layerFiles, refusal } from '../scripts/lib/new-layer.js'
import { tempDir } from './helpers/cli.js'

// npm run new:layer; that a scaffolded layer generates, type-checks and passes its test is for a
// real app to show (done by hand in a copy: the scaffold's files are those of scripts/lib/new-layer.ts).
describe('npm run new:layer', () => {
  const dir = tempDir()
  afterAll(() => dir.remove())

  it.each([
    ['Greet', 'is not a layer name'],
    ['greet_me', 'is not a layer name'],
    ['teams', 'templates/teams/ is taken'],
    ['base', 'templates/base/ is taken'],
    ['db-oracle', 'templates/db-oracle/ is taken'],
    ['oauth-gitlab', 'names the values of --oauth'],
    ['yes', 'is a flag already'],
    ['no-greet', 'is a flag already'],
    ['custom', 'tags variants already'],
    ['health', 'base names health in its code already'],
  ])('refuses %s', (name, why) => {
    expect(refusal(name)).toContain(why)
  })

  it('writes the options row, a feature answering GET /api/<name> through routes.api, and its test', () => {
    expect(refusal('greet-me')).toBeNull()
    const files = layerFiles('greet-me', '../../context.js')
    expect([...files.keys()]).toEqual(['layer.ts', 'server/src/features/greet-me/index.ts', 'server/tests/greet-me.test.ts'])
    const row = files.get('layer.ts')!
    for (const part of ['greetMe: boolean', "key: 'greetMe'", "flag: '--greet-me'", 'default: () => false', "contractDefault: 'no'", "layer: 'greet-me'", "matrix: { tag: 'greet-me' }"]) expect(row).toContain(part)
    const index = files.get('server/src/features/greet-me/index.ts')!
    expect(index).toContain("import type { AppFeature } from '../../context.js'")
    expect(index).toMatch(/routes: \{\n {4}api\(router\) \{\n {6}router\.get\('\/greet-me'[\s\S]*res\.json\(\{ ok: true \}\)/)
    expect(files.get('server/tests/greet-me.test.ts')).toContain("supertest(built.app).get('/api/greet-me')")
  })

  it("imports the app's core from the kernel's index once base has one", () => {
    expect(coreImport(dir.path)).toBe('../../context.js')
    mkdirSync(join(dir.path, 'base', 'server', 'src', 'kernel'), { recursive: true })
    writeFileSync(join(dir.path, 'base', 'server', 'src', 'kernel', 'index.ts'), 'export {}\n')
    expect(coreImport(dir.path)).toBe('../../kernel/index.js')
    expect(layerFiles('greet-me', coreImport(dir.path)).get('server/src/features/greet-me/index.ts')).toContain("from '../../kernel/index.js'")
  })
})
