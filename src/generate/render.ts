import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import ejs from 'ejs'
import type { Answers } from '../options.js'
import { type GenerateDeps, templateContext } from './context.js'
import { TEMPLATES_DIR, layersFor } from './layers.js'
import { deepMerge, finishPackageJson } from './package-json.js'

/** A project as relative POSIX paths → contents, sorted by path. */
export type ProjectFiles = Map<string, Buffer>

function listFiles(root: string, relative = ''): string[] {
  return readdirSync(join(root, relative), { withFileTypes: true }).flatMap((entry) => {
    const path = relative ? `${relative}/${entry.name}` : entry.name
    return entry.isDirectory() ? listFiles(root, path) : [path]
  })
}

/** `_gitignore` → `.gitignore`, `_env.ejs` → `.env`: npm would drop or rename dotfiles on publish. */
function outputPath(templatePath: string): string {
  return templatePath
    .split('/')
    .map((segment) => segment.replace(/^_/, '.'))
    .join('/')
    .replace(/\.ejs$/, '')
}

/**
 * `+<layer>/…` in a layer holds what it adds only when that other layer is on too (a test of
 * both together): the path without its first segment then, nothing otherwise. So neither layer
 * names the other in a variant that has only one of them.
 */
function withOtherLayer(path: string, layers: string[]): string | undefined {
  if (!path.startsWith('+')) return path
  const slash = path.indexOf('/')
  return layers.includes(path.slice(1, slash)) ? path.slice(slash + 1) : undefined
}

/**
 * Renders a project in memory. Pure: the same answers, name and random source give the same
 * bytes, which is what the snapshot tests rely on.
 */
export function renderProject(answers: Answers, appName: string, deps: GenerateDeps): ProjectFiles {
  const context = templateContext(answers, appName, deps)
  const files = new Map<string, Buffer>()
  let packageJson = {}

  const layers = layersFor(answers)
  for (const layer of layers) {
    const root = join(TEMPLATES_DIR, layer)
    for (const listedPath of listFiles(root)) {
      // EJS partials a layer lends to base templates (`include('../<layer>/partials/…')`), not files of the app.
      if (listedPath.startsWith('partials/')) continue
      const templatePath = withOtherLayer(listedPath, layers)
      if (templatePath === undefined) continue
      const source = readFileSync(join(root, listedPath))
      if (templatePath === 'package.json') {
        packageJson = deepMerge(packageJson, JSON.parse(source.toString('utf8')))
      } else if (templatePath.endsWith('.ejs')) {
        const text = ejs.render(source.toString('utf8'), context, { filename: join(root, listedPath) })
        files.set(outputPath(templatePath), Buffer.from(text))
      } else {
        files.set(outputPath(templatePath), source)
      }
    }
  }

  files.set('package.json', Buffer.from(`${JSON.stringify(finishPackageJson(packageJson, appName), null, 2)}\n`))
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

