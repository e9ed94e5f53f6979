/**
 * Where a server's resident memory sits (bench:app --memory): its RSS by mapping from
 * /proc/<pid>/smaps, and the live JavaScript heap by kind and constructor from a heap snapshot
 * the server writes on SIGUSR2 (started with --heapsnapshot-signal=SIGUSR2).
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'

const MiB = 1024 * 1024

/** The node flag that lets `heapSnapshot` ask the server for a snapshot. */
export const HEAP_SNAPSHOT_FLAG = '--heapsnapshot-signal=SIGUSR2'

/** glibc gives each thread that mallocs an arena of its own, reserved 64 MiB-aligned and 64 MiB long. */
const ARENA = BigInt(64 * MiB)

/**
 * RSS in MiB grouped by what is mapped: each file (node itself, a native addon, a shared library)
 * by its name, the main thread's malloc heap ([heap]), the other threads' malloc arenas, and
 * the remaining anonymous memory (V8's heap, thread stacks).
 */
export function rssByMapping(pid: number, top = 8): string[] {
  const mappings: Array<{ start: bigint; end: bigint; access: string; path: string; rss: number }> = []
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const mapping = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line)
    if (mapping) mappings.push({ start: BigInt(`0x${mapping[1]}`), end: BigInt(`0x${mapping[2]}`), access: mapping[3]!, path: mapping[4]!, rss: 0 })
    const rss = /^Rss:\s+(\d+) kB/.exec(line)
    if (rss) mappings.at(-1)!.rss = Number(rss[1]) * 1024
  }
  // An arena is its used part (read-write) from a 64 MiB boundary, then its reserve (no access)
  // up to the next boundary.
  const arenaStarts = new Set(
    mappings
      .filter((m, i) => {
        const reserve = mappings[i + 1]
        const end = reserve?.path === '' && reserve.start === m.end && reserve.access.startsWith('---') ? reserve.end : m.end
        return m.path === '' && m.start % ARENA === 0n && end === m.start + ARENA
      })
      .map((m) => m.start),
  )
  const groups = new Map<string, number>()
  for (const m of mappings) {
    const name =
      m.path === ''
        ? arenaStarts.has(m.start - (m.start % ARENA))
          ? 'malloc arenas of the threads but the main one'
          : 'other anonymous (V8 heap, thread stacks)'
        : m.path.startsWith('/')
          ? m.path.split('/').pop()!
          : m.path
    groups.set(name, (groups.get(name) ?? 0) + m.rss)
  }
  const threads = /Threads:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
  return [
    ...[...groups].sort((a, b) => b[1] - a[1]).slice(0, top).map(([key, bytes]) => `${(bytes / MiB).toFixed(1).padStart(6)} MiB  ${key}`),
    `${threads} threads`,
  ]
}

/**
 * Asks the server in `cwd` for a heap snapshot (V8 collects all garbage first, so it holds the
 * live objects only) and sums it by node kind and by constructor; the file is deleted after.
 */
export async function heapSnapshot(pid: number, cwd: string, probe: string, top = 12): Promise<string[]> {
  const before = new Set(readdirSync(cwd))
  process.kill(pid, 'SIGUSR2')
  const file = await written(cwd, before, probe)
  try {
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshot
    const fields = snapshot.snapshot.meta.node_fields
    const kinds = snapshot.snapshot.meta.node_types[0] as string[]
    const [width, kindAt, nameAt, sizeAt] = [fields.length, fields.indexOf('type'), fields.indexOf('name'), fields.indexOf('self_size')]
    const byKind = new Map<string, number>()
    const byConstructor = new Map<string, number>()
    let total = 0
    for (let at = 0; at < snapshot.nodes.length; at += width) {
      const size = snapshot.nodes[at + sizeAt]!
      const kind = kinds[snapshot.nodes[at + kindAt]!]!
      total += size
      byKind.set(kind, (byKind.get(kind) ?? 0) + size)
      if (kind === 'object' || kind === 'native') {
        const name = `${snapshot.strings[snapshot.nodes[at + nameAt]!]} (${kind})`
        byConstructor.set(name, (byConstructor.get(name) ?? 0) + size)
      }
    }
    const lines = (map: Map<string, number>) =>
      [...map].sort((a, b) => b[1] - a[1]).slice(0, top).map(([key, bytes]) => `  ${(bytes / MiB).toFixed(1).padStart(6)} MiB  ${key}`)
    return [`live heap: ${(total / MiB).toFixed(1)} MiB; by kind:`, ...lines(byKind), 'objects by constructor:', ...lines(byConstructor)]
  } finally {
    rmSync(file, { force: true })
  }
}

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: unknown[] } }
  nodes: number[]
  strings: string[]
}

/**
 * The new .heapsnapshot in `cwd`, once written: V8 writes it on the server's main thread, so the
 * first answer to `probe` after the file appeared comes after its last byte.
 */
async function written(cwd: string, before: Set<string>, probe: string): Promise<string> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200))
    const name = readdirSync(cwd).find((entry) => entry.endsWith('.heapsnapshot') && !before.has(entry))
    if (name && (await fetch(probe)).ok) return join(cwd, name)
  }
  throw new Error(`no heap snapshot appeared in ${cwd} within 60 s`)
}
