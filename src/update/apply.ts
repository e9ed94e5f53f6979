import { mkdirSync, readdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Change } from './plan.js'

/** Writes the plan into the app; a folder a deletion empties goes too, as git leaves none behind. */
export function applyPlan(dir: string, changes: readonly Change[]): void {
  for (const change of changes) {
    const file = join(dir, change.path)
    if (change.contents) {
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, change.contents)
    } else if (change.action === 'deleted') {
      rmSync(file)
      for (let folder = dirname(change.path); folder !== '.' && readdirSync(join(dir, folder)).length === 0; folder = dirname(folder)) {
        rmdirSync(join(dir, folder))
      }
    }
  }
}
