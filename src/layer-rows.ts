import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { LAYER_ROW_FILE, layersWithRows } from './layer-files.js'

/** A layer's `layer.ts` as imported: src/options.ts checks that its default export is the layer's row. */
export interface LayerModule {
  name: string
  exports: unknown
}

const TEMPLATES = fileURLToPath(new URL('../templates/', import.meta.url))

/**
 * Every `templates/<layer>/layer.ts`, by folder name. From source (tests, scripts), found in the
 * folder and imported; the bundled CLI has this module replaced by one importing the files found
 * when it was built (scripts/build.ts), so the rows are part of dist/cli/ and no folder is read.
 */
export const LAYER_MODULES: readonly LayerModule[] = await Promise.all(
  layersWithRows(TEMPLATES).map(async (name) => ({
    name,
    exports: (await import(pathToFileURL(join(TEMPLATES, name, LAYER_ROW_FILE)).href)) as unknown,
  })),
)
