// At a release: adds the migrations not yet in test/released-migrations.json with their SHA-256,
// so that from then on test/released-migrations.test.ts fails if one changes or goes. Entries
// already there are never rewritten: a released migration is history; a change is a new one.
import { writeFileSync } from 'node:fs'
import { MANIFEST, migrationFiles, readManifest, sha256 } from './lib/released-migrations.js'

const manifest = readManifest()
const added = migrationFiles().filter((path) => manifest[path] === undefined)
for (const path of added) manifest[path] = sha256(path)
const sorted = Object.fromEntries(Object.entries(manifest).sort(([a], [b]) => (a < b ? -1 : 1)))
writeFileSync(MANIFEST, `${JSON.stringify(sorted, null, 2)}\n`)
console.log(added.length ? `released: ${added.join(', ')}` : 'every migration is in the manifest already')
