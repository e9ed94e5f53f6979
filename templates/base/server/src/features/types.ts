// The extension points of the server: what a feature layer (templates/<layer>/ in the generator)
// adds by shipping `features/<layer>/<point>.ts`. Each point's index (`features/<point>.ts`)
// lists the layers' entries; base code reads only the index, so it never names a feature.
import type { Request, RequestHandler, Response, Router } from 'express'
import type { ModelAttributes, Sequelize } from 'sequelize'
import type { Limit } from '../config/rate-limits.js'
import type { AppConfig } from '../context.js'
import type { Migration } from '../db/migrations/types.js'
import type { User } from '../models/user.js'
import type { SignInUser, UserJson, UserRow } from '../services/users.js'

/** `config.ts`: settings read at start-up. Plain data: it imports nothing of the app at run time. */
export interface FeatureConfig {
  /** Env variables holding secrets, checked like JWT_ACCESS_SECRET (declare them on `FeatureSecrets` too). */
  secrets?: string[]
  /** Default rate limits by name (declare the names on `RateLimitSettings` too). */
  rateLimits?: Record<string, Limit>
  /** Cookie suffixes by name (declare the names on `CookieNames`): prefixed like the others, and CSRF-checked. */
  cookies?: Record<string, string>
}

/** `models.ts`: the layer's tables, and the columns it adds to `users` (declare them on `User` too). */
export interface FeatureModels {
  models: { initModel(sequelize: Sequelize): void }[]
  userAttributes?: ModelAttributes
}

/** `migrations.ts`: applied after base's, in layer order; a migration imports no application code. */
export type FeatureMigrations = { name: string; up: Migration; down?: Migration }[]

/** `user-fields.ts`: what a user's JSON carries for the layer (declare the fields on `UserJson` and the columns on `UserRow`). */
export interface UserFields {
  /** Extra columns of the `users u` row the hot paths select, written as db/sql.ts quotes them. */
  columns: string[]
  fromRow(row: UserRow): Partial<UserJson>
  fromModel(user: User): Partial<UserJson>
}

/**
 * `login-step.ts`: runs between a right password and a session, in layer order. Returning true
 * means it answered the request itself (a second factor asks for a code instead of signing in).
 */
export type LoginStep = (req: Request, res: Response, config: AppConfig, user: SignInUser, remember: boolean) => Promise<boolean>

/** `routes.ts`: routes mounted on base's routers. */
export interface FeatureRoutes {
  /** On /api/auth, signed out. */
  auth?(router: Router, config: AppConfig): void
  /** On /api/account, behind authentication; `passwordChecked` counts wrong passwords per user. */
  account?(router: Router, config: AppConfig, passwordChecked: RequestHandler[]): void
}
