import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** create-vue's own CLI entry, from the devDependency the benchmarks compare against. */
export function createVueBin(): string {
  const require = createRequire(import.meta.url)
  const manifest = require.resolve('create-vue/package.json')
  return join(dirname(manifest), (require(manifest) as { bin: Record<string, string> }).bin['create-vue']!)
}
