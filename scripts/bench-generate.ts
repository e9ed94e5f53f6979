/**
 * Times generating the `sqlite` variant (`--yes --no-install --no-git`) against create-vue
 * generating `--ts --router --pinia --vitest`, alternating the two so that both see the same
 * machine state, and prints both medians and the ratio (target: ≤ 1.5).
 *
 *   npm run bench:generate [-- --runs 21]
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createVueBin } from './lib/create-vue.js'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '21' } } })
const runs = Number(values.runs)

const ours = fileURLToPath(new URL('../bin/create-cookie-auth-app.js', import.meta.url))
const createVue = createVueBin()

// Both take a project name relative to their working directory (create-vue only accepts that).
const contenders = {
  'create-cookie-auth-app': (name: string) => [ours, name, '--yes', '--no-install', '--no-git'],
  'create-vue': (name: string) => [createVue, name, '--ts', '--router', '--pinia', '--vitest'],
}
type Name = keyof typeof contenders

const env = { ...process.env }
delete env.CI

function timeOnce(name: Name, project: string): number {
  const started = process.hrtime.bigint()
  const result = spawnSync(process.execPath, contenders[name](project), { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] })
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6
  if (result.status !== 0) throw new Error(`${name} failed: ${result.stderr}`)
  if (!existsSync(join(root, project, 'package.json'))) throw new Error(`${name} wrote no project at ${project}`)
  return elapsed
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

const root = mkdtempSync(join(tmpdir(), 'cca-bench-'))
const times: Record<Name, number[]> = { 'create-cookie-auth-app': [], 'create-vue': [] }
try {
  // One warm-up each: the first run pays for cold file-system caches.
  timeOnce('create-cookie-auth-app', 'warm-a')
  timeOnce('create-vue', 'warm-b')
  for (let run = 0; run < runs; run++) {
    const order: Name[] = run % 2 ? ['create-vue', 'create-cookie-auth-app'] : ['create-cookie-auth-app', 'create-vue']
    for (const name of order) times[name].push(timeOnce(name, `${name}-${run}`))
  }
} finally {
  rmSync(root, { recursive: true, force: true })
}

const ourMedian = median(times['create-cookie-auth-app'])
const theirMedian = median(times['create-vue'])
console.log(`runs: ${runs} each, alternating, whole process (node start-up included)`)
console.log(`create-cookie-auth-app sqlite --yes --no-install --no-git: median ${ourMedian.toFixed(1)} ms`)
console.log(`create-vue --ts --router --pinia --vitest:                median ${theirMedian.toFixed(1)} ms`)
console.log(`ratio: ${(ourMedian / theirMedian).toFixed(2)} (target ≤ 1.5)`)
