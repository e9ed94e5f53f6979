import { packStore } from './pack.js'
import type { TemplateStore } from './store.js'

let store: TemplateStore | undefined

/** In the bundled CLI (dist/cli/main.js), the pack that `npm run build` wrote beside it. */
export function defaultTemplates(): TemplateStore {
  store ??= packStore(new URL('../templates.pack', import.meta.url))
  return store
}
