import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ejs from 'ejs'
import type { TemplateStore } from './store.js'

export const TEMPLATES_DIR = fileURLToPath(new URL('../../../templates/', import.meta.url))

function listFiles(root: string, relative = ''): string[] {
  return readdirSync(join(root, relative), { withFileTypes: true }).flatMap((entry) => {
    const path = relative ? `${relative}/${entry.name}` : entry.name
    return entry.isDirectory() ? listFiles(root, path) : [path]
  })
}

/** The templates folder read as it is: what a template maintainer edits shows at once. */
export function folderStore(root: string): TemplateStore {
  return {
    list: (layer) => listFiles(join(root, layer)),
    has: (path) => existsSync(join(root, path)),
    read: (path) => readFileSync(join(root, path)),
    // compileDebug (EJS's default) names the template's line when one throws.
    render: (path, context) => ejs.render(readFileSync(join(root, path), 'utf8'), context, { filename: join(root, path) }),
  }
}
