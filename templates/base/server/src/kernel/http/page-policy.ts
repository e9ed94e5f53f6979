import helmet from 'helmet'
import type { AppContext } from '../context.js'

const defaultDirectives = helmet.contentSecurityPolicy.getDefaultDirectives() as Record<string, Iterable<string>>

type Directives = Record<string, string[] | null>

/** The page's Content-Security-Policy directives: base's, with the sources the layers' pages need (helmet's defaults under both). */
export function pageDirectives(ctx: AppContext, own: Directives): Directives {
  const directives: Directives = { ...own }
  for (const feature of ctx.features) {
    for (const [name, sources] of Object.entries(feature.contentSources?.(ctx) ?? {})) {
      // Helmet's defaults are kebab-cased (`style-src`); a directive without one falls back to `default-src 'self'`.
      const present = directives[name] ?? [...(defaultDirectives[name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)] ?? ["'self'"])]
      directives[name] = [...new Set([...present, ...(sources ?? [])])]
    }
  }
  return directives
}
