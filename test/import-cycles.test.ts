import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generate } from '../src/generate/index.js'
import { VARIANT_IDS, variantAnswers } from '../src/variants.js'
import { tempDir } from './helpers/cli.js'
import { countingRandom } from './helpers/random.js'

const DPDM = join(import.meta.dirname, '..', 'node_modules', '.bin', 'dpdm')

/** The code of a generated app, each part read through its own tsconfig (the client's `@/` paths). */
const PARTS = [
  { tsconfig: 'tsconfig.server.json', files: 'server/src/**/*.ts' },
  { tsconfig: 'tsconfig.client.json', files: 'client/src/**/*.ts' },
]

/**
 * dpdm's cycles, type-only imports included (as madge counts them): at run time a module that
 * imports, directly or not, one still being evaluated sees its exports undefined, and a type
 * cycle is the same tangle for a reader.
 */
async function cycles(cwd: string, part: (typeof PARTS)[number]): Promise<{ found: boolean; report: string }> {
  const { exitCode, stdout } = await execa(DPDM, ['--no-tree', '--no-warning', '--exit-code', 'circular:1', '--tsconfig', part.tsconfig, part.files], { cwd, reject: false })
  return { found: exitCode !== 0, report: stdout }
}

const dir = tempDir('cca-cycles-')
afterAll(() => dir.remove())

describe.each(VARIANT_IDS)('the %s variant', (id) => {
  const app = join(dir.path, id)
  beforeAll(() => {
    generate(variantAnswers(id), app, { random: countingRandom() })
  })

  it.each(PARTS)('has no import cycle in $files', async (part) => {
    const { found, report } = await cycles(app, part)
    expect(found, report).toBe(false)
  })
})

it('the check finds a cycle where there is one', async () => {
  const app = join(dir.path, 'planted')
  generate(variantAnswers('sqlite'), app, { random: countingRandom() })
  writeFileSync(join(app, 'server/src/kernel/paths.ts'), `import '../app.js'\n${'export const projectRoot = ""'}\n`, { flag: 'a' })
  const { found, report } = await cycles(app, PARTS[0]!)
  expect(found).toBe(true)
  expect(report).toContain('server/src/kernel/paths.ts')
})
