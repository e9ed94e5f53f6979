import { TEMPLATES_DIR, folderStore } from './folder.js'
import type { TemplateStore } from './store.js'

let store: TemplateStore | undefined

/**
 * The templates a render uses unless told otherwise: the folder, when running from source.
 * The bundled CLI has default-store.bundle.ts in this module's place (scripts/build.ts).
 */
export function defaultTemplates(): TemplateStore {
  store ??= folderStore(TEMPLATES_DIR)
  return store
}
