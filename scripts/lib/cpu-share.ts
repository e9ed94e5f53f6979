/**
 * Where a machine's CPU went during a run, from /proc: the server's main thread, its bcrypt
 * threads (the only ones at nice 19, kernel/auth/passwords.ts), its other threads (libuv's pool,
 * where sqlite3 runs queries, and V8's helpers), the database server's processes, and the time
 * the hypervisor took from this virtual machine (steal). The rest is wrk, the kernel and idle.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { execFileSync } from 'node:child_process'

const TICKS_PER_SECOND = 100
const KINDS = ['bcrypt threads', 'main thread', 'other server threads', 'database server', 'steal'] as const
type Kind = (typeof KINDS)[number]

interface Snapshot {
  at: number
  /** CPU ticks by server thread id, with its kind. */
  threads: Map<string, { kind: Kind; ticks: number }>
  database: number
  /** The machine's steal ticks (/proc/stat), all cores together. */
  steal: number
}

/** utime + stime and nice of a /proc stat line (fields 14, 15 and 19; the name may hold spaces). */
function parseStat(line: string): { ticks: number; nice: number } {
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ')
  return { ticks: Number(fields[11]) + Number(fields[12]), nice: Number(fields[16]) }
}

function readStat(path: string): { ticks: number; nice: number } | undefined {
  try {
    return parseStat(readFileSync(path, 'utf8'))
  } catch {
    return undefined // the thread or process ended meanwhile
  }
}

/**
 * Waits until the database server uses less than `threshold` of one core over a second: after a
 * bulk load MariaDB keeps flushing and purging for a while, on the cores the servers measured
 * share. Gives up after `maxSeconds`; returns the seconds waited.
 */
export async function databaseQuiet(threshold = 0.03, maxSeconds = 120): Promise<number> {
  const started = Date.now()
  const ticks = () => databasePids().reduce((sum, pid) => sum + (readStat(`/proc/${pid}/stat`)?.ticks ?? 0), 0)
  while (Date.now() - started < maxSeconds * 1000) {
    const before = ticks()
    await new Promise((resolve) => setTimeout(resolve, 1000))
    if (ticks() - before < threshold * TICKS_PER_SECOND) break
  }
  return Math.round((Date.now() - started) / 1000)
}

function databasePids(): number[] {
  const pids: number[] = []
  for (const name of ['mariadbd', 'mysqld', 'postgres']) {
    try {
      pids.push(...execFileSync('pgrep', ['-x', name], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number))
    } catch {
      // none of that name
    }
  }
  return pids
}

export function cpuSnapshot(serverPid: number): Snapshot {
  const threads = new Map<string, { kind: Kind; ticks: number }>()
  for (const tid of readdirSync(`/proc/${serverPid}/task`)) {
    const stat = readStat(`/proc/${serverPid}/task/${tid}/stat`)
    if (!stat) continue
    const kind: Kind = tid === String(serverPid) ? 'main thread' : stat.nice === 19 ? 'bcrypt threads' : 'other server threads'
    threads.set(tid, { kind, ticks: stat.ticks })
  }
  const database = databasePids().reduce((sum, pid) => sum + (readStat(`/proc/${pid}/stat`)?.ticks ?? 0), 0)
  const steal = Number(readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/)[8] ?? 0)
  return { at: Date.now(), threads, database, steal }
}

/** Each kind's share of all cores' time between two snapshots, as "bcrypt threads 91 %, …". */
export function cpuShares(before: Snapshot, after: Snapshot): string {
  const capacity = ((after.at - before.at) / 1000) * TICKS_PER_SECOND * availableParallelism()
  const used = new Map<Kind, number>(KINDS.map((kind) => [kind, 0]))
  for (const [tid, thread] of after.threads) used.set(thread.kind, used.get(thread.kind)! + thread.ticks - (before.threads.get(tid)?.ticks ?? 0))
  used.set('database server', after.database - before.database)
  used.set('steal', after.steal - before.steal)
  const rest = capacity - [...used.values()].reduce((a, b) => a + b, 0)
  const pct = (ticks: number) => `${((100 * ticks) / capacity).toFixed(1)} %`
  return [...KINDS.filter((kind) => used.get(kind)! > 0).map((kind) => `${kind} ${pct(used.get(kind)!)}`), `rest (wrk, kernel, idle) ${pct(rest)}`].join(', ')
}
