import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** `.git` is the user's history: it never counts as content and is never removed. */
const KEPT = new Set(['.git'])

export type TargetState = 'absent' | 'empty' | 'not-empty' | 'not-a-directory'

export function targetState(dir: string): TargetState {
  if (!existsSync(dir)) return 'absent'
  if (!statSync(dir).isDirectory()) return 'not-a-directory'
  return readdirSync(dir).some((entry) => !KEPT.has(entry)) ? 'not-empty' : 'empty'
}

/** Makes `dir` ready to receive a project: created, or emptied except for `.git`. */
export function prepareTarget(dir: string): void {
  mkdirSync(dir, { recursive: true })
  for (const entry of readdirSync(dir)) {
    if (!KEPT.has(entry)) rmSync(join(dir, entry), { recursive: true, force: true })
  }
}
