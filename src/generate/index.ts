import { mkdirSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import type { Answers } from '../options.js'
import { type GenerateDeps, packageName } from './context.js'
import { renderProject } from './render.js'

export type { GenerateDeps } from './context.js'
export { renderProject } from './render.js'
export { packageName } from './context.js'

/**
 * Writes the project for `answers` into `targetDir` (which must be empty or absent, but for
 * `.git`). Returns the relative paths written. No prompting, installing or git here.
 */
export function generate(answers: Answers, targetDir: string, deps: GenerateDeps): string[] {
  const root = resolve(targetDir)
  const files = renderProject(answers, packageName(basename(root)), deps)
  for (const dir of new Set([...files.keys()].map((path) => dirname(join(root, path))))) mkdirSync(dir, { recursive: true })
  for (const [path, contents] of files) writeFileSync(join(root, path), contents)
  return [...files.keys()]
}
