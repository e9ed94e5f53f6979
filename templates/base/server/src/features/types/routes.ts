// The type of an extension point (features/types/<point>.ts, filled by features/<layer>/<point>.ts).
import type { Express, RequestHandler, Router } from 'express'
import type { AppContext } from '../../context.js'

/** `routes.ts`: routes mounted on base's routers. */
export interface FeatureRoutes {
  /** On /api/auth, signed out. */
  auth?(router: Router, ctx: AppContext): void
  /** On /api/account, behind authentication; `passwordChecked` counts wrong passwords per user. */
  account?(router: Router, ctx: AppContext, passwordChecked: RequestHandler[]): void
  /** On the app itself, outside /api (a `/.well-known/` document), ahead of the client's pages. */
  root?(app: Express, ctx: AppContext): void
}
