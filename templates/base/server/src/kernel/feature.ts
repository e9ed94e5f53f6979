// What a feature layer is to the server: one `ServerFeature` object, exported by
// `features/<layer>/index.ts` and listed by the rendered registry `features/index.ts`. Base never
// imports a layer: create-context.ts (and the command-line entry points) hand the registry down
// as `features`, and base reads each field where its point is. The types take the handlers'
// context as a parameter (`Ctx`, the app's `AppContext`) so that kernel/context.ts can carry the
// registry without an import cycle.
import type { Express, Request, RequestHandler, Response, Router } from 'express'
import type { ModelAttributes, Sequelize, Transaction } from 'sequelize'
import type { Limit } from './config/limit.js'
import type { Restriction } from './auth/principal.js'
import type { Migration } from './db/migrations/types.js'
import type { FeatureMessages } from './i18n/catalogue.js'
import type { RouteDoc } from './openapi/types.js'
import type { User } from './models/user.js'
import type { SignInUser, UserJson, UserRow } from './services/user-json.js'

/** What a layer's variables may depend on, as kernel/config/env.ts has read them (spelled out here: importing env.ts would close a cycle). */
export interface EnvBasics {
  NODE_ENV: 'development' | 'production' | 'test'
  BASE_URL: string
  BASE_ORIGIN: string
}

/** Settings read at start-up. Plain data: the layer's `config.ts` imports nothing of the app at run time. */
export interface FeatureConfig {
  /** Env variables holding secrets, checked like JWT_ACCESS_SECRET (declare them on `FeatureSecrets` too). */
  secrets?: string[]
  /** Default rate limits by name (declare the names on `FeatureRateLimits` too). */
  rateLimits?: Record<string, Limit>
  /** Cookie suffixes by name (declare the names on `FeatureCookieNames`): prefixed like the others, and CSRF-checked. */
  cookies?: Record<string, string>
  /**
   * Reads the layer's own environment variables (declare them on `FeatureEnv`): `read` gives a
   * variable's trimmed value (empty is unset), `fail` reports one bad variable, and start-up
   * stops with every line reported, as for base's.
   */
  env?(read: (name: string) => string | undefined, fail: (name: string, problem: string) => void, base: EnvBasics): object
}

/** The layer's tables, and the columns it adds to `users` (declare them on `User` too). */
export interface FeatureModels {
  models: { initModel(sequelize: Sequelize): void }[]
  userAttributes?: ModelAttributes
}

/** Applied after base's, in layer order; a migration imports no application code. */
export type FeatureMigrations = { name: string; up: Migration; down?: Migration }[]

/** What a user's JSON carries for the layer (declare the fields on `FeatureUserJson` and the columns on `FeatureUserRow`). */
export interface UserFields {
  /** Extra columns of the `users u` row the hot paths select, written as kernel/db/sql.ts quotes them. */
  columns: string[]
  fromRow(row: UserRow): Partial<UserJson>
  fromModel(user: User): Partial<UserJson>
}

/**
 * A login step that takes over (a second factor asks for a code instead of signing in): it has
 * set what it needs (its cookie); `body` answers a JSON login, `page` is where a sign-in that
 * came by browser redirects (one through a provider) sends the browser next.
 */
export interface LoginStepAnswer {
  body: object
  page: string
}

/**
 * Runs between a right password (or another first factor) and a session, in layer order;
 * `factor` is the first factor as the session will keep it (kernel/auth/sign-in.ts).
 */
export type LoginStep<Ctx> = (req: Request, res: Response, ctx: Ctx, user: SignInUser, remember: boolean, factor: string) => Promise<LoginStepAnswer | undefined>

/** Routes mounted on base's routers. */
export interface FeatureRoutes<Ctx> {
  /** On /api/auth, signed out. */
  auth?(router: Router, ctx: Ctx): void
  /**
   * On /api itself, for an area of the layer's own (`/api/<area>/…`): behind the API's headers,
   * CSRF check and body parsing like base's routers, after them, and before the API's 404.
   */
  api?(router: Router, ctx: Ctx): void
  /**
   * On /api/account, behind authentication; `passwordChecked` counts wrong passwords per user.
   * A sensitive route takes kernel/auth/require-confirmed.ts after it (step-up).
   */
  account?(router: Router, ctx: Ctx, passwordChecked: RequestHandler[]): void
  /** On the app itself, outside /api (a `/.well-known/` document), ahead of the client's pages. */
  root?(app: Express, ctx: Ctx): void
}

/** Who an authenticator found behind a request's `Authorization` header. */
export interface Authenticated {
  userId: number
  /** What the credential may do (kernel/auth/principal.ts): `read`, `write`, `admin`. */
  scopes: readonly string[]
  /** The credential's own id (an API key's), for its limits and its last use. */
  credentialId: string
  /** The one resource the credential acts within, when it is held to one (kernel/auth/principal.ts). */
  restriction?: Restriction
}

/**
 * A way to authenticate a request that a layer brings (an API key), asked in layer order after
 * the kernel's own: the access cookie, then the app's access token as a bearer. A request with an
 * `Authorization` header is judged by that header alone: no cookie is read and no CSRF check is
 * asked. The kernel then loads the user through the authentication cache (a deleted user is
 * refused, a changed role applies), checks the scope the method needs, and keeps every route that
 * changes credentials, sessions, keys or step-up for sessions only.
 */
export interface Authenticator<Ctx> {
  /** The principal's `via` (`api-key`). */
  name: string
  /** Its OpenAPI security schemes by name (`bearer`), listed on every route it may call. */
  securitySchemes?: Readonly<Record<string, object>>
  /**
   * Judges the header: undefined when it is not of this kind (the next authenticator is asked),
   * null when it is but proves nothing (401), who it is otherwise. May throw an HttpError (a 429).
   */
  authenticate(req: Request, header: string, ctx: Ctx): Promise<Authenticated | null | undefined>
}

/**
 * A way to sign in that a layer brings, besides base's password: the security core counts them
 * all to keep every account a way in (kernel/security/ways-in.ts), so no layer names another's.
 */
export interface SignInMethod {
  /** A short name for the method, as an event or a page would show it. */
  name: string
  /** How many of it the user has, read in the caller's transaction (under the user's row lock). */
  count(userId: number, transaction: Transaction): Promise<number>
}

/**
 * A way to confirm it is you (step-up: kernel/security/confirmation.ts) that a layer brings, besides
 * base's password, offered by `GET /api/account/confirm` to the accounts that have it.
 */
export interface ConfirmMethod<Ctx> {
  /** The names it offers this account (`totp`, `passkey`, `provider:<name>`), none when the account lacks it. */
  offered(userId: number, ctx: Ctx): Promise<string[]>
  /** A field of `POST /api/account/confirm` that it checks (`code`). */
  field?: string
  /**
   * Checks that field's value for the user: true when it confirms. A wrong value throws its 422 on
   * `field` and marks it (kernel/security/confirmation.ts `markWrongConfirmation`), so it counts toward
   * the account routes' 429 and is recorded as `confirmation_failed`.
   */
  check?(req: Request, res: Response, ctx: Ctx, userId: number, value: unknown): Promise<boolean>
  /** A ceremony's routes on /api/account/confirm (a passkey's, a provider's round trip); each confirms through kernel/security/confirmation.ts. */
  routes?(router: Router, ctx: Ctx, passwordChecked: RequestHandler[]): void
}

/** What the security core does to the rows of a credential token's model. */
export interface TokenModel {
  readonly name: string
  destroy(options: { where: Record<string, unknown>; transaction?: Transaction }): Promise<number>
  update(values: Record<string, unknown>, options: { where: Record<string, unknown>; transaction?: Transaction }): Promise<unknown>
}

/**
 * A kind of token that signs someone in, sets or changes a credential, or confirms an address,
 * registered with the security core (kernel/security/credential-tokens.ts). Every model that keeps such
 * a token is registered, base's and the layers' alike; a test of the app fails on one that is not.
 */
export interface CredentialToken {
  model: TokenModel
  /** What holding one lets its holder do. */
  grants: 'sign-in' | 'credential' | 'address'
  /**
   * Pending: mailed or started, not yet used (a link, a challenge, a ceremony): every event that
   * revokes sessions voids the user's. Standing: a credential in use (recovery codes, sessions),
   * changed only through its own flows and the core's revocation.
   */
  pending: boolean
  /** A pending token whose rows must outlive it is voided by stamping this column instead of deleted. */
  voidColumn?: string
  /**
   * Which revoking events void a pending token (default `every`). `wide`: only those that end
   * every session of the user, or every one but the requester's (sign out everywhere, a password
   * change or reset, a deletion), not the end of one session (a sign-out) nor of the sign-ins of
   * one way in (a removed passkey): a standing credential such as an API key outlives a sign-out.
   */
  voidedBy?: 'every' | 'wide'
  /** The column with the address a mailed token went to; it works only while that is the account's. */
  mailedTo?: string
}

/**
 * Runs when a user is created, by any path (registration, the first registration of a verified
 * link, `user:create`, a provider's sign-up: all go through kernel/services/users.ts `createUser`),
 * inside the transaction that inserts the row: what a layer keeps for every user exists with
 * the user or not at all, and no request ever sees a user without it.
 */
export type UserCreated = (user: User, transaction: Transaction) => Promise<void>

/**
 * What a layer checks and tidies before users are deleted (the account's own deletion, an
 * admin's), in the deleting transaction, after base's own checks took their locks and before the
 * rows go. Deletions that base does on its own (abandoned unverified accounts) meet only the
 * database's cascades, so a layer's rows must also cascade from `users`.
 */
export interface UserDeletion {
  /**
   * Why these users may not be deleted now, as a catalogue message (the layer's `messages`) of a
   * sentence the person deleting can act on, or undefined: base answers 422 with it on the
   * request's field. Take what it reads under lock,
   * so a concurrent change cannot slip past the check.
   */
  refusal?(userIds: number[], transaction: Transaction): Promise<string | undefined>
  /** What must change besides the cascades (other users' rows pointing at what goes). */
  cleanup?(userIds: number[], transaction: Transaction): Promise<void>
}

/** The registry as the users' creation and deletion read it. */
export type UserLifecycle = readonly { userCreated?: UserCreated; userDeletion?: UserDeletion }[]

/**
 * One feature layer, as the server's core consumes it. `JobDeps` and `Jobs` are what the app's
 * job handlers are given and are (kernel/context.ts fills them in, as it does `Ctx`).
 */
export interface ServerFeature<Ctx, JobDeps = unknown, Jobs = unknown> {
  /** The layer's folder name under templates/ and features/. */
  name: string
  config?: FeatureConfig
  models?: FeatureModels
  migrations?: FeatureMigrations
  userFields?: UserFields
  loginStep?: LoginStep<Ctx>
  routes?: FeatureRoutes<Ctx>
  /**
   * Describes every route `routes` mounts, for the OpenAPI document (`GET /api/openapi.json`).
   * Called only when the document is first built: load the descriptions with `import()` here, so
   * nothing of them loads at start-up. The app's tests fail on a mounted route missing here.
   */
  openapi?(ctx: Ctx): Promise<readonly RouteDoc[]>
  signInMethods?: readonly SignInMethod[]
  /** Ways to authenticate a request by its `Authorization` header, asked in layer order after the kernel's own. */
  authenticators?: readonly Authenticator<Ctx>[]
  credentialTokens?: readonly CredentialToken[]
  confirmMethods?: readonly ConfirmMethod<Ctx>[]
  /** Keeps a row of the layer's for every user (a user's own workspace, say). */
  userCreated?: UserCreated
  /** Refuses a deletion that would break what the layer keeps (a group losing its last owner), and tidies after one. */
  userDeletion?: UserDeletion
  /**
   * The layer's own queued work and mails, by job name (declare the payloads on `JobPayloads`
   * in kernel/jobs/types.ts). Queued with `ctx.queue.dispatch`, run by whichever instance runs jobs.
   */
  jobs?(deps: JobDeps): Jobs
  /**
   * The layer's events that webhooks send: its credential event types, each with the type it is
   * sent as (`group_created` → `group.created`; `sentAsThemselves` in kernel/webhooks/catalogue.ts keeps
   * the names). An endpoint may subscribe to each, or to `group.*`.
   */
  webhookEvents?: Readonly<Record<string, string>>
  /**
   * The layer's messages (its errors, its mails), one catalogue per locale of kernel/i18n/locales.ts, under
   * a namespace of its own; merged with base's at start-up (kernel/i18n/translate.ts).
   */
  messages?: FeatureMessages
}

/** The registry as base reads it: the layers this app was generated with, in order. */
export type Features<Ctx> = readonly ServerFeature<Ctx>[]
