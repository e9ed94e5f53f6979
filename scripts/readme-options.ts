/**
 * Rewrites README.md's options table and docs/tests.md's list of the variants `npm test` runs
 * from the options rows (scripts/lib/readme-options.ts), between their marker comments; after a
 * change to a row, a layer's layer.ts or src/variant-cover.ts. test/readme.test.ts fails until it
 * has run.
 *
 *   npm run readme:options
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { REGION_FILES, REGIONS, renderRegions } from './lib/readme-options.js'

for (const file of REGION_FILES) {
  const url = new URL(`../${file}`, import.meta.url)
  const before = readFileSync(url, 'utf8')
  const after = renderRegions(file, before)
  const names = REGIONS.filter((region) => region.file === file)
    .map((region) => region.name)
    .join(' and ')
  if (after === before) console.log(`${file}: ${names}, up to date`)
  else {
    writeFileSync(url, after)
    console.log(`${file}: rewrote ${names} from the options rows`)
  }
}
