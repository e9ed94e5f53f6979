import { describe, expect, it } from 'vitest'
import { renderProject } from '../src/generate/index.js'
import { VARIANT_IDS, variantAnswers } from '../src/variants.js'
import { applyEdit, applyExample, exampleSteps } from '../scripts/lib/readme-example.js'
import { countingRandom } from './helpers/random.js'

// The example's files are type-checked and its test run in a rendered app by the variant run's
// `readme-example` step; here, cheaply, that every step still finds the lines it names.
describe("the worked example of the generated docs (docs/extending.md)", () => {
  it.each(VARIANT_IDS)('applies to %s as rendered: new files are new, every edit finds its lines', (id) => {
    const files = renderProject(variantAnswers(id), 'x', { random: countingRandom() })
    const steps = exampleSteps(files.get('docs/extending.md')!.toString())
    // A slice of the reader's own: its folder, and its line in the registry, nothing else of the app.
    expect(steps.filter((step) => step.kind === 'edit').map((step) => step.path)).toEqual(['server/src/features/index.ts'])
    expect(steps.filter((step) => step.kind === 'file' && !step.path.startsWith('server/src/features/projects/')).map((step) => step.path)).toEqual(['server/tests/projects.test.ts'])
    const written = applyExample(steps, (path) => files.get(path)?.toString())
    expect(written.get('server/src/features/index.ts')).toMatch(/import \{ feature as projects \} from '\.\/projects\/index\.js'\n[\s\S]*\n  projects,\n\] as const satisfies AppFeatures\n/)
    expect([...written.keys()].filter((path) => path.endsWith('.test.ts'))).toEqual(['server/tests/projects.test.ts'])
  })
})

describe('exampleSteps', () => {
  it('reads a marked fence as a new file and a marked diff as an edit, and nothing unmarked', () => {
    const readme = ['```ts', 'ignored', '```', '<!-- example: a.ts -->', '```ts', 'one', '```', '<!-- example: b.ts -->', '```diff', ' x', '+y', '```', ''].join('\n')
    expect(exampleSteps(readme)).toEqual([
      { path: 'a.ts', kind: 'file', body: 'one\n' },
      { path: 'b.ts', kind: 'edit', body: ' x\n+y\n' },
    ])
  })

  it('refuses a marker not followed by a fence', () => {
    expect(() => exampleSteps('<!-- example: a.ts -->\n\n```ts\none\n```\n')).toThrow(/1 example markers, but only 0/)
  })
})

describe('applyEdit', () => {
  const source = ['a', 'b', 'c', 'a', 'd', ''].join('\n')

  it('inserts the added lines where they stand among the context, hunk after hunk', () => {
    expect(applyEdit(source, ' b\n+B\n c\n@@\n d\n+D\n', 'f')).toBe(['a', 'b', 'B', 'c', 'a', 'd', 'D', ''].join('\n'))
    expect(applyEdit(source, '+first\n a\n b\n', 'f')).toBe(['first', 'a', 'b', 'c', 'a', 'd', ''].join('\n'))
  })

  it('refuses context that is missing, repeated, split, out of order, or absent', () => {
    expect(() => applyEdit(source, ' z\n+Z\n', 'f')).toThrow(/f: these lines are not in the file/)
    expect(() => applyEdit(source, ' a\n+A\n', 'f')).toThrow(/in the file 2 times/)
    expect(() => applyEdit(source, ' b\n+B\n d\n', 'f')).toThrow(/not in the file/)
    expect(() => applyEdit(source, ' d\n+D\n@@\n b\n+B\n', 'f')).toThrow(/before the previous hunk's/)
    expect(() => applyEdit(source, '+B\n', 'f')).toThrow(/without context/)
    expect(() => applyEdit(source, ' b\n-c\n', 'f')).toThrow(/neither context/)
  })
})

describe('applyExample', () => {
  it('refuses a new file that exists and an edit of one that does not', () => {
    expect(() => applyExample([{ path: 'a.ts', kind: 'file', body: 'x\n' }], () => 'old')).toThrow(/exists already/)
    expect(() => applyExample([{ path: 'a.ts', kind: 'edit', body: ' x\n+y\n' }], () => undefined)).toThrow(/no such file/)
  })
})
