import { mkdirSync, writeFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import type { Answers } from '../options.js'
import { type GenerateDeps, packageName } from './context.js'
import { type ProjectFiles, renderProject } from './render.js'

export type { GenerateDeps } from './context.js'
export { renderProject } from './render.js'
export { packageName } from './context.js'

/**
 * Writes the project for `answers` into `targetDir` (which must be empty or absent, but for
 * `.git`). Returns the relative paths written. No prompting, installing or git here. `rendered`:
 * the project as renderProject made it for these answers already (the CLI reads it before writing).
 */
export function generate(answers: Answers, targetDir: string, deps: GenerateDeps, rendered?: ProjectFiles): string[] {
  const root = resolve(targetDir)
  const files = rendered ?? renderProject(answers, packageName(basename(root)), deps)
  if (!rendered) deps.mark?.('render')
  mkdirSync(root, { recursive: true })
  for (const dir of directoriesOf(files.keys())) mkdirSync(join(root, dir))
  deps.mark?.('directories')
  for (const [path, contents] of files) writeFileSync(join(root, path), contents)
  deps.mark?.('files')
  return [...files.keys()]
}

/** Every folder the paths need, each parent before its children: one mkdir each, none recursive. */
function directoriesOf(paths: Iterable<string>): string[] {
  const dirs = new Set<string>()
  for (const path of paths) {
    for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) dirs.add(path.slice(0, at))
  }
  return [...dirs].sort()
}
