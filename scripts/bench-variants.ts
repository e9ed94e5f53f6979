/**
 * What the variant matrix costs: importing src/variants.ts (six test files and the variant
 * scripts do, each in its own process), and proposing a pairwise cover (scripts/variant-cover.ts)
 * for today's options table and for one, two and three more boolean options.
 *
 *   npm run bench:variants [-- --runs 5]
 */
import { spawnSync } from 'node:child_process'
import { parseArgs } from 'node:util'
import { greedyPairwise, uncoveredPairs } from '../src/pairwise.js'
import { DIMENSIONS, VARIANT_IDS } from '../src/variants.js'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } })
const RUNS = Number(values.runs)
const ROOT = new URL('..', import.meta.url)

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!
const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`

function timeNode(code: string): number {
  const started = performance.now()
  const { status, stderr } = spawnSync(process.execPath, ['--import', 'tsx', '-e', code], { cwd: ROOT, encoding: 'utf8' })
  if (status !== 0) throw new Error(`node -e ${code}: ${stderr}`)
  return performance.now() - started
}

// Alternated, so that a busy moment of the machine hits both about alike.
const imports: number[] = []
const floors: number[] = []
for (let run = 0; run < RUNS; run++) {
  imports.push(timeNode("await import('./src/variants.ts')"))
  floors.push(timeNode('0'))
}
console.log(`import src/variants.ts, fresh process, median of ${RUNS}: ${ms(median(imports))}  (node --import tsx -e 0: ${ms(median(floors))}; difference ${ms(median(imports) - median(floors))})`)
console.log(`  runs: ${imports.map((value) => value.toFixed(0)).join(', ')} / floor ${floors.map((value) => value.toFixed(0)).join(', ')}`)

const real = DIMENSIONS.map((dimension) => dimension.length)
console.log(`\ncommitted cover: ${VARIANT_IDS.length} variants\ngreedy pairwise cover, median of ${RUNS}:`)
console.log('options  product  cover  time')
for (const extra of [0, 1, 2, 3]) {
  const sizes = [...real, ...Array<number>(extra).fill(2)]
  const times: number[] = []
  let rows: number[][] = []
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now()
    rows = greedyPairwise(sizes)
    times.push(performance.now() - started)
  }
  if (uncoveredPairs(sizes, rows).length) throw new Error(`the greedy cover of ${sizes.join('×')} misses pairs`)
  const product = sizes.reduce((n, size) => n * size, 1)
  const label = extra ? `${sizes.length} (+${extra})` : `${sizes.length}`
  console.log(`${label.padEnd(7)}  ${String(product).padStart(7)}  ${String(rows.length).padStart(5)}  ${ms(median(times))}`)
}
