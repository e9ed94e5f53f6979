import { readFileSync } from 'node:fs'
import type { TemplateStore } from './store.js'

/**
 * The templates folder as one file, which `npm run build` writes beside the bundled CLI
 * (pack-writer.ts): one read instead of hundreds, and every `.ejs` template compiled ahead, so
 * generating a project neither walks the folder nor loads EJS.
 *
 * Layout: a uint32 (little-endian) header length, the header as JSON, then every file's bytes.
 */
export interface PackHeader {
  /** Path → [offset in the bytes after the header, length]. */
  files: Record<string, [number, number]>
  /** `.ejs` path → the body of EJS's compiled function (locals, escapeFn, include, rethrow). */
  compiled: Record<string, string>
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' }

/** EJS's own escaping for `<%= %>` (utils.escapeXML), which its compiled bodies expect as escapeFn. */
function escapeXML(markup: unknown): string {
  return markup == undefined ? '' : String(markup).replace(/[&<>'"]/g, (char) => HTML_ESCAPES[char]!)
}

function noInclude(): never {
  throw new Error('templates include partials through fromLayers, not EJS include()')
}

/** The store of a pack file. */
export function packStore(file: string | URL): TemplateStore {
  const pack = readFileSync(file)
  const headerLength = pack.readUInt32LE(0)
  const header = JSON.parse(pack.toString('utf8', 4, 4 + headerLength)) as PackHeader
  const bytes = pack.subarray(4 + headerLength)
  const paths = Object.keys(header.files)
  const compiled = new Map<string, (...args: unknown[]) => string>()

  const read = (path: string): Buffer => {
    const entry = Object.hasOwn(header.files, path) ? header.files[path] : undefined
    if (!entry) throw new Error(`no template ${path} in ${String(file)}`)
    return bytes.subarray(entry[0], entry[0] + entry[1])
  }
  return {
    list: (layer) => paths.filter((path) => path.startsWith(`${layer}/`)).map((path) => path.slice(layer.length + 1)),
    has: (path) => Object.hasOwn(header.files, path),
    read,
    render: (path, context) => {
      let fn = compiled.get(path)
      if (!fn) {
        const body = Object.hasOwn(header.compiled, path) ? header.compiled[path] : undefined
        if (body === undefined) throw new Error(`no compiled template ${path} in ${String(file)}`)
        // Sloppy mode on purpose: EJS's bodies read the locals through `with`.
        fn = new Function('locals, escapeFn, include, rethrow', body) as (...args: unknown[]) => string
        compiled.set(path, fn)
      }
      // As ejs.render does: the locals copied onto an object without a prototype.
      return fn(Object.assign(Object.create(null), context), escapeXML, noInclude, undefined)
    },
  }
}
