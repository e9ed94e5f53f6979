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

/**
 * What `update` does to each path that the record, the base or the target names, in path order:
 * a file the owner left as generated takes the target's version (or goes), an edited one is
 * merged base → target, a clash is a conflict. Paths nobody generated are never looked at, so
 * the owner's own files are never touched. Writes nothing.
 */
export function planUpdate({ read, recorded, base, target, label }: PlanInput): Change[] {
  const paths = new Set([...base.keys(), ...target.keys(), ...Object.keys(recorded)])
  const changes: Change[] = []
  for (const path of [...paths].sort()) {
    if (UNRECORDED.has(path)) continue
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
