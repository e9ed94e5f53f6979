import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { renderProject } from '../src/generate/index.js'
import { layersFor } from '../src/generate/layers.js'
import { RECORD_FILE } from '../src/generate/record.js'
import { TEMPLATES_DIR } from '../src/generate/templates/folder.js'
import { LAYER_ROW_FILE } from '../src/layer-files.js'
import { VARIANT_IDS, variantAnswers } from '../src/variants.js'
import { listTree } from './helpers/cli.js'
import { countingRandom } from './helpers/random.js'

/**
 * Per variant, in test/__snapshots__/variants/<variant>/: one readable `<path>.snap` per file
 * rendered from an `.ejs` template, package.json and cookie-auth.json; and files.snap, every generated path with
 * the SHA-256 of a file copied as it is from its template, or `rendered`. Most of an app is
 * copied, and a copy is its template's bytes (the last test checks that once), so a change to
 * such a file is reviewed in templates/ alone and shows here as one hash per variant, not as the
 * same diff seven times. The `.snap` suffix keeps the snapshots out of tsc, Vitest and linters.
 * Refresh them with `npm run snapshots:update` and read the diff: every change must be one you
 * meant.
 */
const ROOT = fileURLToPath(new URL('./__snapshots__/variants/', import.meta.url))
/** A generated file named `files` would need this renamed; no template makes one. */
const LIST = 'files.snap'

/** Whether this run writes snapshots (`vitest -u`); read from the runner, as argv is not passed on. */
function updating(): boolean {
  const state = expect.getState() as unknown as { snapshotState?: { _updateSnapshot?: string } }
  return state.snapshotState?._updateSnapshot === 'all'
}

function render(id: string) {
  const sources = new Map<string, string>()
  const files = renderProject(variantAnswers(id), 'my-app', { random: countingRandom(), sources })
  return { files, sources }
}

/** Rendered: from an `.ejs` template, or package.json and cookie-auth.json, which have no single template. */
const isRendered = (sources: Map<string, string>, path: string) => sources.get(path)?.endsWith('.ejs') ?? true

describe.each(VARIANT_IDS)('variant %s', (id) => {
  const { files, sources } = render(id)
  const rendered = [...files.keys()].filter((path) => isRendered(sources, path))
  const dir = join(ROOT, id)

  it('generates exactly the files it generated before', () => {
    const expected = [LIST, ...rendered.map((path) => `${path}.snap`)].sort()
    if (updating() && existsSync(dir)) {
      // Drop snapshots of files the templates no longer produce, or no longer render.
      const tree = listTree(dir)
      for (const path of tree) {
        if (!path.endsWith('/') && !expected.includes(path)) rmSync(join(dir, path))
      }
      // Children before their parents, so a folder emptied in one run goes in the same run.
      for (const path of tree.filter((entry) => entry.endsWith('/')).reverse()) {
        if (readdirSync(join(dir, path)).length === 0) rmdirSync(join(dir, path))
      }
    }
    const onDisk = existsSync(dir) ? listTree(dir).filter((path) => !path.endsWith('/')) : []
    if (!updating()) expect(onDisk).toEqual(expected)
  })

  it('lists every file, with the hash of each one copied from its template', async () => {
    const lines = [...files].map(([path, contents]) =>
      isRendered(sources, path) ? `${path}  rendered` : `${path}  ${createHash('sha256').update(contents).digest('hex')}`,
    )
    await expect(`${lines.join('\n')}\n`).toMatchFileSnapshot(join(dir, LIST))
  })

  it.each(rendered)('%s', async (path) => {
    await expect(files.get(path)!.toString('utf8')).toMatchFileSnapshot(join(dir, `${path}.snap`))
  })
})

it('keeps no snapshot folder for a variant that no longer exists', () => {
  const folders = existsSync(ROOT) ? readdirSync(ROOT) : []
  expect(folders.filter((folder) => !VARIANT_IDS.includes(folder))).toEqual([])
})

/**
 * Each output path's template, found by walking the layers as the generator does, written apart
 * from it: later layers win, `partials/` and a layer's options row (`layer.ts`) are not files of
 * the app, `+<layer>/` counts only with that layer on, a leading `_` of a segment stands for a
 * dot, `.ejs` is rendered and dropped.
 */
function templateSources(layers: string[]): Map<string, string> {
  const sources = new Map<string, string>()
  for (const layer of layers) {
    for (const path of listTree(join(TEMPLATES_DIR, layer)).filter((entry) => !entry.endsWith('/'))) {
      if (path.startsWith('partials/') || /^\+[^/]+\/partials\//.test(path) || path === LAYER_ROW_FILE) continue
      let inner = path
      if (inner.startsWith('+')) {
        const slash = inner.indexOf('/')
        if (!layers.includes(inner.slice(1, slash))) continue
        inner = inner.slice(slash + 1)
      }
      if (inner === 'package.json') continue
      const output = inner
        .split('/')
        .map((segment) => segment.replace(/^_/, '.'))
        .join('/')
        .replace(/\.ejs$/, '')
      sources.set(output, `${layer}/${path}`)
    }
  }
  return sources
}

it('copies every file not rendered byte for byte from its template, in every variant', () => {
  for (const id of VARIANT_IDS) {
    const { files, sources } = render(id)
    const walked = templateSources(layersFor(variantAnswers(id)))
    // What files.snap marks as rendered or hashes rests on the generator's sources: the walk must agree.
    expect(Object.fromEntries(sources), id).toEqual(Object.fromEntries(walked))
    expect([...files.keys()].filter((path) => !walked.has(path)), id).toEqual([RECORD_FILE, 'package.json'])
    for (const [path, source] of walked) {
      if (source.endsWith('.ejs')) continue
      expect(files.get(path)!.equals(readFileSync(join(TEMPLATES_DIR, source))), `${id}: ${path} is not ${source}`).toBe(true)
    }
  }
})
