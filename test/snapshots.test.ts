import { existsSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { renderProject } from '../src/generate/index.js'
import { VARIANT_IDS, variantAnswers } from '../src/variants.js'
import { listTree } from './helpers/cli.js'
import { countingRandom } from './helpers/random.js'

/**
 * One readable snapshot per generated file: test/__snapshots__/variants/<variant>/<path>.snap.
 * The `.snap` suffix keeps the snapshots out of tsc, Vitest and linters. Refresh them with
 * `npm run snapshots:update` and read the diff: every change must be one you meant.
 */
const ROOT = fileURLToPath(new URL('./__snapshots__/variants/', import.meta.url))
/** Whether this run writes snapshots (`vitest -u`); read from the runner, as argv is not passed on. */
function updating(): boolean {
  const state = expect.getState() as unknown as { snapshotState?: { _updateSnapshot?: string } }
  return state.snapshotState?._updateSnapshot === 'all'
}

describe.each(VARIANT_IDS)('variant %s', (id) => {
  const files = renderProject(variantAnswers(id), 'my-app', { random: countingRandom() })
  const dir = join(ROOT, id)

  it('generates exactly the files it generated before', () => {
    const expected = [...files.keys()].map((path) => `${path}.snap`).sort()
    if (updating() && existsSync(dir)) {
      // Drop snapshots of files the templates no longer produce.
      for (const path of listTree(dir)) {
        if (!path.endsWith('/') && !expected.includes(path)) rmSync(join(dir, path))
      }
    }
    const onDisk = existsSync(dir) ? listTree(dir).filter((path) => !path.endsWith('/')) : []
    if (!updating()) expect(onDisk).toEqual(expected)
  })

  it.each([...files.keys()])('%s', async (path) => {
    await expect(files.get(path)!.toString('utf8')).toMatchFileSnapshot(join(dir, `${path}.snap`))
  })
})

it('keeps no snapshot folder for a variant that no longer exists', () => {
  const folders = existsSync(ROOT) ? readdirSync(ROOT) : []
  expect(folders.filter((folder) => !VARIANT_IDS.includes(folder))).toEqual([])
})
