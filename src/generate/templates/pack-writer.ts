import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ejs from 'ejs'
import { isLayerRowPath } from '../../layer-files.js'
import type { PackHeader } from './pack.js'

/** The pack of `files` (path → contents, paths relative to the templates folder). */
export function packTemplates(files: Map<string, Buffer>): Buffer {
  const header: PackHeader = { files: {}, compiled: {} }
  let offset = 0
  for (const [path, contents] of files) {
    header.files[path] = [offset, contents.length]
    offset += contents.length
    if (path.endsWith('.ejs')) {
      // compileDebug off: the body is then all of the function, with no line bookkeeping.
      const template = new ejs.Template(contents.toString('utf8'), { filename: path, compileDebug: false })
      template.compile()
      header.compiled[path] = template.source
    }
  }
  const json = Buffer.from(JSON.stringify(header))
  const length = Buffer.alloc(4)
  length.writeUInt32LE(json.length)
  return Buffer.concat([length, json, ...files.values()])
}

/** Packs the templates folder `root` into `file`. */
export function writeTemplatePack(root: string, file: string | URL): void {
  writeFileSync(file, packTemplates(templateFiles(root)))
}

/**
 * Every file under `root` (the templates folder), by path relative to it, but the layers' rows of
 * the options table (`<layer>/layer.ts`): the bundle holds those as code, and no app gets one.
 */
export function templateFiles(root: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>()
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(root, relative), { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name
      if (entry.isDirectory()) walk(path)
      else if (!isLayerRowPath(path)) files.set(path, readFileSync(join(root, path)))
    }
  }
  walk('')
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}
