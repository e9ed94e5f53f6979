import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/**
 * A feature layer's row of the options table, `templates/<layer>/layer.ts`: read by the generator
 * (src/options.ts), never a file of the app (the renderer and the template pack leave it out).
 */
export const LAYER_ROW_FILE = 'layer.ts'

/** The folders of the templates folder `root` that hold a layer row, by name. */
export function layersWithRows(root: string): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, entry.name, LAYER_ROW_FILE)))
    .map((entry) => entry.name)
    .sort()
}

/** Whether `path`, relative to the templates folder, is a layer's row (`two-factor/layer.ts`). */
export function isLayerRowPath(path: string): boolean {
  const parts = path.split('/')
  return parts.length === 2 && parts[1] === LAYER_ROW_FILE
}
