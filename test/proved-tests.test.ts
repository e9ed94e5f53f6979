import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientTestKeys } from '../scripts/lib/client-closure.js'
import { addProved, dueClientTests, dueServerTests, type DueTests, type ProvedTests, testFilters } from '../scripts/lib/proved-tests.js'
import { generate } from '../src/generate/index.js'
import { variantAnswers } from '../src/variants.js'
import { tempDir } from './helpers/cli.js'
import { countingRandom } from './helpers/random.js'

// What test:variants and test:update leave out because an earlier variant proved it: a wrong
// rule here skips a test that would have failed, so each rule is shown to keep what it must.
const dir = tempDir('cca-proved-')
afterAll(() => dir.remove())

const BASE = 'sqlite'
const LAYERS = 'sqlite-custom-verify-2fa-passkeys-oauth-teams-redis'
const app = (id: string) => join(dir.path, id)

beforeAll(() => {
  for (const id of [BASE, LAYERS]) generate(variantAnswers(id), app(id), { random: countingRandom() })
})

/** Runs the client selection for the base app, then for the app with every layer. */
function clientRun(): { first: ReturnType<typeof dueClientTests>; second: ReturnType<typeof dueClientTests> } {
  const proved: ProvedTests = new Map()
  const first = dueClientTests(app(BASE), proved)
  addProved(proved, undefined, first.ran)
  return { first, second: dueClientTests(app(LAYERS), proved) }
}

describe('client test files', () => {
  it('run once where every app file they load is the same: the visit helper, the data table', () => {
    const { first, second } = clientRun()
    expect(first.due).toHaveLength(first.all)
    expect(second.due).not.toContain('client/tests/visit-errors.test.ts')
    expect(second.due).not.toContain('client/tests/data-table.test.ts')
  })

  it('run again where they load the layer registry (the header, the router) or a layer', () => {
    const { second } = clientRun()
    for (const file of ['client/tests/header-nav.test.ts', 'client/tests/router-guards.test.ts', 'client/tests/teams-create.test.ts']) {
      expect(second.due).toContain(file)
    }
  })

  it('run again once a module they load changes, however deep', () => {
    const file = 'client/tests/data-table.test.ts'
    const before = clientTestKeys(app(LAYERS), [file]).get(file)
    const helper = join(app(LAYERS), 'client/src/lib/i18n.ts')
    const text = readFileSync(helper, 'utf8')
    try {
      appendFileSync(helper, '\n// changed\n')
      expect(clientTestKeys(app(LAYERS), [file]).get(file)).not.toBe(before)
    } finally {
      writeFileSync(helper, text)
    }
    expect(clientTestKeys(app(LAYERS), [file]).get(file)).toBe(before)
  })

  it('always run when an import cannot be followed', () => {
    const file = 'client/tests/data-table.test.ts'
    const path = join(app(BASE), file)
    const text = readFileSync(path, 'utf8')
    try {
      writeFileSync(path, `import '@/lib/not-there'\n${text}`)
      expect(clientTestKeys(app(BASE), [file]).get(file)).toBeUndefined()
    } finally {
      writeFileSync(path, text)
    }
  })
})

describe('server test files', () => {
  it('run once per database with the same bytes, again when they read the layer registry', () => {
    const proved: ProvedTests = new Map()
    const first = dueServerTests(app(BASE), 'sqlite', proved)
    addProved(proved, 'sqlite', first.ran)
    const second = dueServerTests(app(LAYERS), 'sqlite', proved)
    expect(second.due).not.toContain('server/tests/tokens.test.ts')
    expect(second.due).toContain('server/tests/feature-routes.test.ts')
    expect(dueServerTests(app(LAYERS), 'mysql', proved).due).toContain('server/tests/tokens.test.ts')
  })
})

describe('the vitest arguments', () => {
  const due = (files: string[], all: number): DueTests => ({ due: files, all, ran: new Set() })

  it('name the due files, a whole folder when all of it is due, and leave a project with none unstarted', () => {
    expect(testFilters(due([], 3), due([], 2))).toBeUndefined()
    expect(testFilters(due(['a', 'b', 'c'], 3), due(['d', 'e'], 2))).toEqual([])
    expect(testFilters(due(['a', 'b', 'c'], 3), due([], 2))).toEqual(['server/tests/', '--project', 'server*'])
    expect(testFilters(due(['a'], 3), due([], 2))).toEqual(['a', '--project', 'server*'])
    expect(testFilters(due([], 3), due(['d'], 2))).toEqual(['d', '--project', 'client'])
    expect(testFilters(due(['a'], 3), due(['d', 'e'], 2))).toEqual(['a', 'client/tests/'])
  })
})
