// For template maintainers: (re)renders a variant into /tmp/cca-dev/<variant> so it can be run and
// tested while templates change. Keeps node_modules (a link to the shared install), data/,
// storage/ and test-results/ between runs:  npx tsx scripts/dev-app.ts <variant>
import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { ALL_VARIANT_IDS, VARIANT_IDS } from '../src/variants.js'
import { renderLinkedVariant, sharedNodeModules } from './lib/shared-install.js'

const id = process.argv[2] ?? 'sqlite'
if (!ALL_VARIANT_IDS.includes(id)) {
  console.error(`usage: npx tsx scripts/dev-app.ts <${VARIANT_IDS.join('|')}>`)
  process.exit(1)
}
const modules = await sharedNodeModules()
const dir = join(process.env.CCA_DEV_DIR ?? '/tmp/cca-dev', id)
const KEEP = new Set(['node_modules', 'data', 'storage', 'test-results'])

mkdirSync(dir, { recursive: true })
for (const entry of readdirSync(dir)) if (!KEEP.has(entry)) rmSync(join(dir, entry), { recursive: true, force: true })
const files = renderLinkedVariant(id, dir, modules)
console.log(`${id}: ${files.length} files in ${dir} (node_modules → ${modules})`)
