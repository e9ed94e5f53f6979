import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { renderProject } from '../src/generate/index.js'
import { VARIANT_IDS, variantAnswers } from '../src/variants.js'
import { anchors, brokenLinks, localLinks, slug } from './helpers/markdown-links.js'
import { countingRandom } from './helpers/random.js'

const ROOT = new URL('..', import.meta.url)

describe('links between Markdown files', () => {
  it("resolve in the generator's own files, anchors included", () => {
    // Every file git knows, so a link to any of them resolves; only the Markdown ones are read for links.
    const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean)
    const files = new Map(tracked.map((path) => [path, path.endsWith('.md') && !path.includes('__snapshots__') ? readFileSync(new URL(path, ROOT), 'utf8') : '']))
    expect(brokenLinks(files)).toEqual([])
  })

  for (const id of VARIANT_IDS) {
    it(`resolve in every Markdown file of ${id}`, () => {
      const rendered = renderProject(variantAnswers(id), 'my-app', { random: countingRandom() })
      const files = new Map([...rendered].map(([path, contents]) => [path, path.endsWith('.md') ? contents.toString('utf8') : '']))
      expect(brokenLinks(files)).toEqual([])
    })
  }

  it('finds what is broken: a missing file, a missing heading, and not what is fine', () => {
    const files = new Map([
      ['README.md', '# Title\n\n## The `client`, and more\n\nSee [a](docs/a.md#top), [b](docs/b.md), [c](#the-client-and-more), [d](#nope), [e](https://x.test/y), `[f](g.md)`.\n'],
      ['docs/a.md', '# Top\n\n```md\n# not a heading\n[x](missing.md)\n```\n'],
    ])
    expect(brokenLinks(files)).toEqual(['README.md: docs/b.md (no such file)', 'README.md: #nope (no such heading)'])
    expect(slug('Where things are')).toBe('where-things-are')
    expect([...anchors('# A\n## A\n')]).toEqual(['a', 'a-1'])
    expect(localLinks('[a](b.md "title") [c](mailto:x@y.z)')).toEqual(['b.md'])
  })
})
