/**
 * Where each feature layer sits in a generated server, and how its folders import each other
 * (issue 39's measure). The app has every feature layer of the options table on (a list's every
 * value). For each layer: the server files it adds (against the same answers with the layer at its
 * default, off), the folders they are in, and the base files whose contents it changes. Then the
 * folder-level import graph of server/src (a node is a first level folder, each
 * `features/<layer>/`, each file at the top, and each file directly in `features/`: the registry
 * `features/index.ts` apart from what else sits beside it): the kernel (`server/src/kernel/`,
 * when the app has one) and the registry, each with what it imports and what imports it, the
 * strongly connected folders and the imports that close their cycles.
 *
 *   npx tsx scripts/layer-report.ts     (copied into a worktree of an older revision: its "before")
 */
import { dirname, join, normalize } from 'node:path'
import { renderProject } from '../src/generate/index.js'
import { OPTIONS, fullestAnswer, type Answers } from '../src/options.js'
import { variantAnswers } from '../src/variants.js'
import { countingRandom } from '../test/helpers/random.js'

const layered = OPTIONS.filter((option) => option.layer)
const ENV = { userAgent: undefined, gitAvailable: false }
/** Every layer on: a yes/no row yes, a list row every value, a single choice its matrix value. */
const full: Answers = { ...variantAnswers('sqlite'), ...Object.fromEntries(layered.map((option) => [option.key, fullestAnswer(option)])) }
const render = (answers: Answers) => renderProject(answers, 'x', { random: countingRandom() })
const all = render(full)
const server = (files: Map<string, Buffer>) => [...files.keys()].filter((path) => path.startsWith('server/src/'))

console.log('layer            files  folders  base files it changes')
for (const option of layered) {
  const off = render({ ...full, [option.key]: option.default(ENV) })
  const added = server(all).filter((path) => !off.has(path))
  const folders = new Set(added.map((path) => dirname(path).replace(/^server\/src\/?/, '') || '.'))
  const touched = server(off).filter((path) => !all.get(path)!.equals(off.get(path)!))
  console.log(`${option.layer!.padEnd(16)} ${String(added.length).padStart(5)}  ${String(folders.size).padStart(7)}  ${touched.length} ${touched.map((path) => path.slice('server/src/'.length)).join(', ')}`)
  console.log(`${''.padEnd(16)} folders: ${[...folders].sort().join(', ')}`)
}

// The folder graph: an edge per import from a file of one folder to a file of another.
const REGISTRY = 'features/index.ts'
const KERNEL = 'kernel'
const folderOf = (path: string) => {
  const parts = path.slice('server/src/'.length).split('/')
  // A file at the top (create-context.ts, app.ts, index.ts) is a node of its own.
  if (parts.length === 1) return parts[0]!.replace(/\.ts$/, '')
  // In features/: each layer's folder, and each file beside them (the registry, features/types.ts) on its own.
  if (parts[0] === 'features') return `features/${parts[1]}`
  return parts[0]!
}
/** A feature layer's node, `features/<layer>` (a folder); not the files beside the layers. */
const isFeature = (node: string) => node.startsWith('features/') && !node.endsWith('.ts')
const edges = new Map<string, Map<string, number>>()
for (const path of server(all).filter((file) => file.endsWith('.ts'))) {
  const text = all.get(path)!.toString('utf8')
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
    const target = normalize(join(dirname(path), match[1]!)).replace(/\.js$/, '.ts')
    if (!target.startsWith('server/src/')) continue
    const [from, to] = [folderOf(path), folderOf(target)]
    if (from === to) continue
    const out = edges.get(from) ?? new Map<string, number>()
    out.set(to, (out.get(to) ?? 0) + 1)
    edges.set(from, out)
  }
}

// Tarjan's strongly connected components.
const folders = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((out) => [...out.keys()])])].sort()
const index = new Map<string, number>()
const low = new Map<string, number>()
const stack: string[] = []
const onStack = new Set<string>()
const components: string[][] = []
let counter = 0
function connect(folder: string): void {
  index.set(folder, counter)
  low.set(folder, counter++)
  stack.push(folder)
  onStack.add(folder)
  for (const next of edges.get(folder)?.keys() ?? []) {
    if (!index.has(next)) {
      connect(next)
      low.set(folder, Math.min(low.get(folder)!, low.get(next)!))
    } else if (onStack.has(next)) low.set(folder, Math.min(low.get(folder)!, index.get(next)!))
  }
  if (low.get(folder) === index.get(folder)) {
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== folder)
    components.push(component.sort())
  }
}
for (const folder of folders) if (!index.has(folder)) connect(folder)
const knots = components.filter((component) => component.length > 1)
const inKnot = new Map(knots.flatMap((component, i) => component.map((folder) => [folder, i] as const)))
let closing = 0
for (const [from, out] of edges) for (const [to, count] of out) if (inKnot.has(from) && inKnot.get(from) === inKnot.get(to)) closing += count
// Every slice, base's and the layers': its files, all in its folder, and what it imports besides it (of the
// kernel only its index, as the app's slices.test.ts checks; db: the released migrations' types).
const sliceNames = [...new Set(server(all).flatMap((path) => /^server\/src\/features\/([^/]+)\//.exec(path)?.[1] ?? []))].sort()
console.log('\nslice (features/<name>/)   files  imports besides its own folder')
for (const slice of sliceNames) {
  const files = server(all).filter((path) => path.startsWith(`server/src/features/${slice}/`))
  const outside = [...(edges.get(`features/${slice}`) ?? new Map<string, number>())].map(([to, count]) => `${to} (${count})`)
  console.log(`${slice.padEnd(26)} ${String(files.length).padStart(5)}  ${outside.sort().join(', ') || 'nothing'}`)
}
const importsOf = (node: string) => [...(edges.get(node) ?? new Map<string, number>())].sort(([a], [b]) => a.localeCompare(b)).map(([to, count]) => `${to} (${count})`)
const importersOf = (node: string) =>
  [...edges]
    .flatMap(([from, out]) => (out.has(node) ? [`${from} (${out.get(node)})`] : []))
    .sort()
const kernelFiles = server(all).filter((path) => path.startsWith(`server/src/${KERNEL}/`))
console.log(`\nkernel (server/src/${KERNEL}/): ${kernelFiles.length === 0 ? 'none in this app' : `${kernelFiles.length} files`}`)
if (kernelFiles.length) {
  console.log(`  imports: ${importsOf(KERNEL).join(', ') || 'nothing'}`)
  console.log(`  imported by: ${importersOf(KERNEL).join(', ') || 'nothing'}`)
}
console.log(`registry (server/src/${REGISTRY}):`)
console.log(`  imports: ${importsOf(REGISTRY).join(', ') || 'nothing'}`)
console.log(`  imported by: ${importersOf(REGISTRY).join(', ') || 'nothing'}`)
console.log(`\nfolder graph of server/src: ${folders.length} folders, ${[...edges.values()].reduce((sum, out) => sum + out.size, 0)} folder-to-folder edges`)
console.log(`strongly connected folders: ${knots.length === 0 ? 'none' : knots.map((component) => `${component.length} (${component.join(', ')})`).join('; ')}`)
console.log(`imports between folders of one knot: ${closing}`)
// The registry (features/index.ts) lists the layers: that is its job.
const baseToFeature = [...edges]
  .filter(([from]) => !isFeature(from) && from !== REGISTRY)
  .flatMap(([from, out]) => [...out.keys()].filter(isFeature).map((to) => `${from} → ${to}`))
console.log(`base folders importing a feature folder (the registry aside): ${baseToFeature.length === 0 ? 'none' : baseToFeature.join(', ')}`)
