import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// How the server's code may depend on itself: a feature slice (`src/features/<name>/`) stands on
// the kernel's public index alone, and the kernel knows no slice. These tests read the imports as
// written, type imports included, so a slice cannot reach into the core behind the index.

const SRC = path.resolve(import.meta.dirname, '../src')
const KERNEL_INDEX = 'kernel/index.ts'
const REGISTRY = 'features/index.ts'
/** A slice's declared public surface, the one file of it other slices may import. */
const isPublic = (file: string) => /^features\/[^/]+\/public\.ts$/.test(file)
/**
 * Released migrations keep their bytes (`update` migrates existing databases by them), so they
 * keep naming their one type where it was: types only, and nothing else of the core.
 */
const MIGRATION_TYPES = 'db/migrations/types.ts'
const isMigration = (file: string) => /^features\/[^/]+\/migrations\//.test(file)

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return files(full)
    return /\.(ts|js)$/.test(entry.name) ? [path.relative(SRC, full).split(path.sep).join('/')] : []
  })
}

/** Every relative module a file names: static imports and re-exports, `import()`, `import type`. */
function imports(file: string): string[] {
  const text = fs.readFileSync(path.join(SRC, file), 'utf8')
  const found: string[] = []
  for (const match of text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1]!))
    found.push(target.replace(/\.js$/, fs.existsSync(path.join(SRC, target.replace(/\.js$/, '.ts'))) ? '.ts' : '.js'))
  }
  return found
}

const sliceOf = (file: string): string | undefined => /^features\/([^/]+)\//.exec(file)?.[1]
const all = files(SRC)

describe('feature slices', () => {
  it('import only the kernel index, their own folder and the public files of other slices', () => {
    const strays: string[] = []
    const crossings = new Set<string>()
    for (const file of all) {
      const slice = sliceOf(file)
      if (!slice) continue
      for (const target of imports(file)) {
        const own = sliceOf(target) === slice
        const allowed = own || target === KERNEL_INDEX || isPublic(target) || (isMigration(file) && target === MIGRATION_TYPES)
        if (!allowed) strays.push(`${file} → ${target}`)
        if (!own && isPublic(target)) crossings.add(`${slice} → ${target}`)
      }
    }
    expect(strays).toEqual([])
    // The slices that stand on another, for a reader of the test's output.
    if (crossings.size > 0) console.info(`slices through public files: ${[...crossings].join(', ')}`)
  })

  it('the kernel imports no slice: only the registry lists them, and only the entry points read it', () => {
    const strays = all
      .filter((file) => !sliceOf(file) && file !== REGISTRY)
      .flatMap((file) => imports(file).filter((target) => sliceOf(target) || (target === REGISTRY && !ENTRY_POINTS.includes(file))).map((target) => `${file} → ${target}`))
    expect(strays).toEqual([])
  })

  it('leave no cycle between folders, type imports included', () => {
    const graph = new Map<string, Set<string>>()
    for (const file of all) {
      const from = folderOf(file)
      for (const target of imports(file)) {
        const to = folderOf(target)
        if (to !== from) graph.set(from, (graph.get(from) ?? new Set()).add(to))
      }
    }
    expect(cycles(graph)).toEqual([])
    // The check itself: two folders that import each other are one cycle.
    expect(cycles(new Map([['a', new Set(['b'])], ['b', new Set(['a'])], ['c', new Set(['a'])]]))).toEqual([['a', 'b']])
  })

  it('declare nothing into the kernel but the columns of its `User` model: their names are typed by their own objects', () => {
    const declarations = all
      .filter((file) => sliceOf(file))
      .flatMap((file) => [...fs.readFileSync(path.join(SRC, file), 'utf8').matchAll(/declare module '(\.\.\/)+kernel\/([^']+)'/g)].map((match) => `${file} → kernel/${match[2]}`))
      .filter((declaration) => !declaration.endsWith('→ kernel/models/user.js'))
    expect(declarations).toEqual([])
  })

  it('reads the imports as written: the entry point is seen naming the registry and the core', () => {
    expect(imports('create-context.ts')).toContain(REGISTRY)
    expect(imports('create-context.ts')).toContain('kernel/context.ts')
  })
})

/** Where the app starts: they hand the registry down as `features`. */
const ENTRY_POINTS = ['create-context.ts', 'cli/bootstrap.ts']

/**
 * A file's folder in the graph of folders, as `npm run report:layers` draws it: each slice, the
 * registry, each file at the top (app.ts, create-context.ts) and each other first-level folder
 * (the kernel, cli, db) is one node.
 */
function folderOf(file: string): string {
  const parts = file.split('/')
  if (parts.length === 1 || file === REGISTRY) return file
  return parts[0] === 'features' ? `features/${parts[1]}` : parts[0]!
}

/** The graph's strongly connected parts of more than one node (Tarjan's algorithm), each sorted. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const found: string[][] = []
  const visit = (node: string) => {
    index.set(node, index.size)
    low.set(node, index.get(node)!)
    stack.push(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!))
    }
    if (low.get(node) === index.get(node)) {
      const part: string[] = []
      let top: string
      do {
        top = stack.pop()!
        part.push(top)
      } while (top !== node)
      if (part.length > 1) found.push(part.sort())
    }
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}
