/**
 * Times generating the `sqlite` variant (`--yes --no-install --no-git`) against create-vue
 * generating `--ts --router --pinia --vitest`, alternating the two so that both see the same
 * machine state, and prints both medians and the ratio (target: ≤ 1.20), then where our time
 * goes: the CLI's own phase timings (CCA_TIMINGS), medians over the runs, and what creating a
 * file costs on that disk at the end (the files phase follows it; `TMPDIR=/dev/shm` takes the
 * disk out of both contenders).
 *
 *   npm run bench:generate [-- --runs 21]
 */
import { spawnSync } from 'node:child_process'
import { closeSync, existsSync, mkdtempSync, openSync, rmSync } from 'node:fs'
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
const phases = new Map<string, number[]>()

function timeOnce(name: Name, project: string): number {
  const started = process.hrtime.bigint()
  const result = spawnSync(process.execPath, contenders[name](project), { cwd: root, env: { ...env, CCA_TIMINGS: '1' }, stdio: ['ignore', 'ignore', 'pipe'] })
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6
  if (result.status !== 0) throw new Error(`${name} failed: ${result.stderr}`)
  const timings = /^timings: (.*)$/m.exec(result.stderr.toString())?.[1]
  if (timings) {
    for (const [, phase, ms] of timings.matchAll(/(\S+) ([\d.]+)/g)) phases.set(phase!, [...(phases.get(phase!) ?? []), Number(ms)])
  }
  if (!existsSync(join(root, project, 'package.json'))) throw new Error(`${name} wrote no project at ${project}`)
  // Each project goes right after it is timed, so no run writes into memory the earlier runs still hold.
  rmSync(join(root, project), { recursive: true, force: true })
  return elapsed
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/**
 * What creating one empty file costs in `base` right now, in µs (median of 300): the files phase
 * is 302 of those. On a VM whose disk is throttled after a burst of writes it moves 10-50× with
 * what the machine wrote in the last minutes, whatever the generator does.
 */
function createCost(base: string): number {
  const dir = mkdtempSync(join(base, 'cca-create-'))
  const costs: number[] = []
  try {
    for (let file = 0; file < 300; file++) {
      const started = process.hrtime.bigint()
      closeSync(openSync(join(dir, `f${file}`), 'wx'))
      costs.push(Number(process.hrtime.bigint() - started) / 1e3)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return median(costs)
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
console.log(`ratio: ${(ourMedian / theirMedian).toFixed(2)} (target ≤ 1.20)`)
// Phase medians of the measured runs only (the warm-up's line came first).
console.log('\nwhere our time goes (medians, ms): start-up is Node starting and loading the CLI; render runs from main to the rendered files (arguments, target folder, templates read and rendered); directories and files are the writes; the rest is leaving the process')
let accounted = 0
for (const [phase, values] of phases) {
  const value = median(values.slice(1))
  accounted += value
  console.log(`  ${phase.padEnd(12)} ${value.toFixed(1).padStart(7)}`)
}
console.log(`  ${'exit, rest'.padEnd(12)} ${(ourMedian - accounted).toFixed(1).padStart(7)}`)
const bare: number[] = []
for (let run = 0; run < 11; run++) {
  const started = process.hrtime.bigint()
  spawnSync(process.execPath, ['-e', '0'])
  bare.push(Number(process.hrtime.bigint() - started) / 1e6)
}
console.log(`  (node -e 0 alone: ${median(bare).toFixed(1)} ms, the floor of both)`)
console.log(`  (creating an empty file in ${tmpdir()} after the runs: ${createCost(tmpdir()).toFixed(0)} µs each, the disk's state${existsSync('/dev/shm') ? `; in memory (/dev/shm): ${createCost('/dev/shm').toFixed(0)} µs` : ''})`)
