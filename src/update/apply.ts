import { readdirSync, rmdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { writeAppFile } from './paths.js'
import type { Change } from './plan.js'

/** Writes the plan into the app; a folder a deletion empties goes too, as git leaves none behind. */
export function applyPlan(dir: string, changes: readonly Change[]): void {
  for (const change of changes) {
    if (change.contents) {
      writeAppFile(dir, change.path, change.contents)
    } else if (change.action === 'deleted') {
      rmSync(join(dir, change.path))
      for (let folder = dirname(change.path); folder !== '.' && readdirSync(join(dir, folder)).length === 0; folder = dirname(folder)) {
        rmdirSync(join(dir, folder))
      }
    }
  }
}
