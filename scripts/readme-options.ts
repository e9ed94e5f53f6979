/**
 * Rewrites README.md's options table and its list of the variants `npm test` runs from the
 * options rows (scripts/lib/readme-options.ts), between their marker comments; after a change to
 * a row, a layer's layer.ts or src/variant-cover.ts. test/readme.test.ts fails until it has run.
 *
 *   npm run readme:options
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { renderReadme } from './lib/readme-options.js'

const FILE = new URL('../README.md', import.meta.url)
const before = readFileSync(FILE, 'utf8')
const after = renderReadme(before)
if (after === before) console.log('README.md: the options table and the variant list are up to date')
else {
  writeFileSync(FILE, after)
  console.log('README.md: rewrote the options table and the variant list from the options rows')
}
