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
