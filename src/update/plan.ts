import { RECORD_FILE, UNRECORDED, sha256 } from '../generate/record.js'
import type { ProjectFiles } from '../generate/render.js'
import { mergePackageJson } from './merge-package-json.js'
import { mergeText } from './merge-text.js'

export type Action = 'updated' | 'merged' | 'created' | 'deleted' | 'conflict'

export interface Change {
  path: string
  action: Action
  /** What the file becomes; undefined: it goes (deleted), or stays as it is (a conflict without markers). */
  contents?: Buffer
  /** Said after the path, where the action alone does not tell what happened. */
  note?: string
}

export interface PlanInput {
  /** The app's file at a path, or undefined. */
  read: (path: string) => Buffer | undefined
  /** cookie-auth.json's `files`: the hash of each file as it was generated. */
  recorded: Record<string, string>
  /** The recorded version with the recorded answers, and this version with the new answers. */
  base: ProjectFiles
  target: ProjectFiles
  /** Names the target in conflict markers and notes (`create-cookie-auth-app@0.2.0`). */
  label: string
}

/** git's test: a NUL byte in the first 8,000 bytes. */
const isBinary = (contents: Buffer) => contents.subarray(0, 8000).includes(0)

function merge(path: string, yours: Buffer, base: Buffer | undefined, theirs: Buffer, label: string): Change | undefined {
  if ([yours, base, theirs].some((contents) => contents && isBinary(contents))) {
    return { path, action: 'conflict', note: `binary, edited here and changed by ${label}: yours kept` }
  }
  if (path === 'package.json' && base) {
    const json = mergePackageJson(yours.toString('utf8'), base.toString('utf8'), theirs.toString('utf8'))
    if (json) {
      if (json.text === yours.toString('utf8')) return undefined
      const contents = Buffer.from(json.text)
      if (json.clashes.length) return { path, action: 'conflict', contents, note: `yours kept at ${json.clashes.join(', ')}` }
      return { path, action: 'merged', contents, note: json.keptVersions.length ? `your versions kept: ${json.keptVersions.join(', ')}` : undefined }
    }
  }
  // A file the owner made where the target now makes one merges from nothing: both sides added.
  const text = mergeText(yours.toString('utf8'), base?.toString('utf8') ?? '', theirs.toString('utf8'), label)
  return { path, action: text.conflict ? 'conflict' : 'merged', contents: Buffer.from(text.text) }
}

/** How alike two texts are, as git's rename detection judges it: the share of lines they have in common. */
function similarity(a: string, b: string): number {
  const count = new Map<string, number>()
  const left = a.split('\n')
  const right = b.split('\n')
  for (const line of left) count.set(line, (count.get(line) ?? 0) + 1)
  let common = 0
  for (const line of right) {
    const left = count.get(line)
    if (left) {
      common++
      count.set(line, left - 1)
    }
  }
  return (2 * common) / (left.length + right.length)
}

/** git's default: a file is taken as moved when at least half of it is found at the new path. */
const MOVED = 0.5

/**
 * Files the target moved that the owner edited: each path the base has and the target does not,
 * edited here, paired with the most alike path that only the target has (and the owner has not
 * made), so that the edits follow the file to where it now lives, as git's merge does with a
 * rename. Unedited files need none of this: they go, and the new one is written.
 */
function movedFiles({ read, recorded, base, target }: PlanInput): Map<string, string> {
  const moves = new Map<string, string>()
  const edited = [...base].filter(([path, old]) => {
    if (target.has(path) || isBinary(old)) return false
    const yours = read(path)
    return yours !== undefined && sha256(yours) !== recorded[path] && !yours.equals(old)
  })
  if (edited.length === 0) return moves
  const fresh = [...target.keys()].filter((path) => !base.has(path) && recorded[path] === undefined && !isBinary(target.get(path)!) && read(path) === undefined)
  for (const [path, old] of edited) {
    let best: [string, number] | undefined
    for (const candidate of fresh) {
      const score = similarity(old.toString('utf8'), target.get(candidate)!.toString('utf8'))
      if (score >= MOVED && (!best || score > best[1])) best = [candidate, score]
    }
    if (best) {
      moves.set(path, best[0])
      fresh.splice(fresh.indexOf(best[0]), 1)
    }
  }
  return moves
}

/**
 * What `update` does to each path that the record, the base or the target names, in path order:
 * a file the owner left as generated takes the target's version (or goes), an edited one is
 * merged base → target, a clash is a conflict. Paths nobody generated are never looked at, so
 * the owner's own files are never touched. Writes nothing.
 */
export function planUpdate(input: PlanInput): Change[] {
  const { read, recorded, base, target, label } = input
  const paths = new Set([...base.keys(), ...target.keys(), ...Object.keys(recorded)])
  const changes: Change[] = []
  const moves = movedFiles(input)
  const movedTo = new Set(moves.values())
  for (const path of [...paths].sort()) {
    if (UNRECORDED.has(path) || movedTo.has(path)) continue
    const to = moves.get(path)
    if (to !== undefined) {
      // An edited file the target moved: the edits are merged into the file at its new path.
      changes.push({ path, action: 'deleted', note: `moved to ${to} by ${label}: your edits carried there` })
      const text = mergeText(read(path)!.toString('utf8'), base.get(path)!.toString('utf8'), target.get(to)!.toString('utf8'), label)
      changes.push({ path: to, action: text.conflict ? 'conflict' : 'merged', contents: Buffer.from(text.text), note: `from ${path}` })
      continue
    }
    const [yours, old, next] = [read(path), base.get(path), target.get(path)]
    if (path === RECORD_FILE) {
      // The record always becomes the target's: it says how the app is made from now on.
      if (next && !yours?.equals(next)) changes.push({ path, action: yours ? 'updated' : 'created', contents: next })
      continue
    }
    const generated = old !== undefined || recorded[path] !== undefined
    // Unedited: as the record says it was generated, or as the base renders it (the record may predate a
    // rename of the package, which base follows).
    const unedited = yours !== undefined && (sha256(yours) === recorded[path] || (old !== undefined && yours.equals(old)))
    if (next === undefined) {
      if (yours === undefined) continue
      if (unedited) changes.push({ path, action: 'deleted' })
      else changes.push({ path, action: 'conflict', note: `edited here, removed by ${label}: yours kept` })
    } else if (yours === undefined) {
      if (!generated) changes.push({ path, action: 'created', contents: next })
      // Deleted by the owner: it stays deleted unless the target changes it, which the owner has to see.
      else if (!old?.equals(next)) changes.push({ path, action: 'conflict', contents: next, note: `deleted here, changed by ${label}: its new version written` })
    } else if (yours.equals(next) || old?.equals(next)) {
      continue
    } else if (unedited) {
      changes.push({ path, action: 'updated', contents: next })
    } else {
      const change = merge(path, yours, old, next, label)
      if (change) changes.push(change)
    }
  }
  return changes
}
