import type { RequestHandler } from 'express'
import type { AppContext } from '../context.js'

/** Each app's gates by action, built once (a test builds several apps). */
const built = new WeakMap<object, Map<string, RequestHandler[]>>()

/**
 * The layers' gates of an action (`register`), in layer order, for a route to spread after its
 * rate limits: `router.post('/register', …limits.register, ...gatesFor(ctx, 'register'), register(ctx))`.
 * None in an app without such a layer.
 */
export function gatesFor(ctx: AppContext, action: string): RequestHandler[] {
  let byAction = built.get(ctx)
  if (!byAction) {
    byAction = new Map()
    for (const feature of ctx.features) {
      for (const [name, gate] of Object.entries(feature.gates?.(ctx) ?? {})) {
        if (gate) byAction.set(name, [...(byAction.get(name) ?? []), gate])
      }
    }
    built.set(ctx, byAction)
  }
  return byAction.get(action) ?? []
}
