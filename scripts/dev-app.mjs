#!/usr/bin/env node
// For template maintainers: (re)renders a variant into /tmp/cca-dev/<variant> so it can be run and
// tested while templates change. Keeps node_modules (a link to the shared install), data/,
// storage/ and test-results/ between runs. Run `npm run build` first when src/ changed.
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { generate } from '../dist/generate/index.js'
import { VARIANT_IDS, variantAnswers } from '../dist/variants.js'

const id = process.argv[2] ?? 'sqlite'
if (!VARIANT_IDS.includes(id)) {
  console.error(`usage: node scripts/dev-app.mjs <${VARIANT_IDS.join('|')}>`)
  process.exit(1)
}
const modules = process.env.CCA_NODE_MODULES ?? '/tmp/cca-deps-warm/node_modules'
const dir = join(process.env.CCA_DEV_DIR ?? '/tmp/cca-dev', id)
const KEEP = new Set(['node_modules', 'data', 'storage', 'test-results'])

mkdirSync(dir, { recursive: true })
for (const entry of readdirSync(dir)) if (!KEEP.has(entry)) rmSync(join(dir, entry), { recursive: true, force: true })
const files = generate(variantAnswers(id), dir, { random: randomBytes })
if (!existsSync(join(dir, 'node_modules'))) symlinkSync(modules, join(dir, 'node_modules'), 'dir')
console.log(`${id}: ${files.length} files in ${dir} (node_modules → ${modules})`)
