import { LAYER_ROW_FILE } from '../layer-files.js'
import type { Answers } from '../options.js'
import { type GenerateDeps, templateContext } from './context.js'
import { layersFor } from './layers.js'
import { deepMerge, finishPackageJson, pinnedVersions } from './package-json.js'
import { RECORD_FILE, renderRecord } from './record.js'
import { defaultTemplates } from './templates/default-store.js'

/** A project as relative POSIX paths → contents, sorted by path. */
export type ProjectFiles = Map<string, Buffer>

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
  const templates = deps.templates ?? defaultTemplates()
  const context = templateContext(answers, appName, deps, templates)
  const files = new Map<string, Buffer>()
  let packageJson = {}

  const layers = layersFor(answers)
  for (const layer of layers) {
    for (const listedPath of templates.list(layer)) {
      // EJS partials a layer lends to base templates (`include('../<layer>/partials/…')`), not files of the app.
      if (listedPath.startsWith('partials/') || /^\+[^/]+\/partials\//.test(listedPath)) continue
      // The layer's row of the options table, the generator's own.
      if (listedPath === LAYER_ROW_FILE) continue
      const templatePath = withOtherLayer(listedPath, layers)
      if (templatePath === undefined) continue
      const path = `${layer}/${listedPath}`
      if (templatePath === 'package.json') {
        packageJson = deepMerge(packageJson, JSON.parse(templates.read(path).toString('utf8')))
      } else {
        const output = outputPath(templatePath)
        files.set(output, templatePath.endsWith('.ejs') ? Buffer.from(templates.render(path, context)) : templates.read(path))
        deps.sources?.set(output, path)
      }
    }
  }

  files.set('package.json', Buffer.from(`${JSON.stringify(finishPackageJson(packageJson, appName, pinnedVersions(templates)), null, 2)}\n`))
  files.set(RECORD_FILE, renderRecord(answers, files))
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

