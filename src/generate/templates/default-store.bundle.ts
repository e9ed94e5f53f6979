import { packStore } from './pack.js'
import type { TemplateStore } from './store.js'

let store: TemplateStore | undefined

/** In the bundled CLI (dist/cli/, every module of it in that one folder), the pack that `npm run build` wrote beside it. */
export function defaultTemplates(): TemplateStore {
  store ??= packStore(new URL('../templates.pack', import.meta.url))
  return store
}
